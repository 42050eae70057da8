/**
 * Resolves in a task of its own (after a zero-delay timer), so that the work awaiting it does not
 * lengthen the task running now: on a slow phone the browser paints and answers input in between.
 */
export function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
}
