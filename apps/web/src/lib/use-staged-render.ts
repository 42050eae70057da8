import { useEffect, useState } from 'react';

/**
 * How many of a page's `stages` to render: none on the first render, then one more in each task
 * after it. A page that renders its header first and its cards one by one, each in a task of its
 * own, shows sooner and never blocks the browser for long (on a slow phone one render of a whole
 * signed-in page is a task of hundreds of milliseconds, during which nothing responds). Stages
 * are rendered in page order, each below the last: nothing already shown moves.
 */
export function useStagedRender(stages: number): number {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (shown >= stages) return undefined;
    const timer = setTimeout(() => setShown((count) => count + 1), 0);
    return () => clearTimeout(timer);
  }, [shown, stages]);
  return shown;
}
