import type { FileColumn } from './invite-emails';
import { FILE_MAX_BYTES, FILE_TOO_LARGE_MESSAGE, PARSE_FAILED_MESSAGE, type ReadProgress, SheetError } from './read-sheet';

/** What the page sends the worker. */
export type ReadRequest = { file: File };

/** What the worker answers: progress, then the file's columns or the refusal (a message for the user). */
export type ReadReply =
  | { type: 'progress'; progress: ReadProgress }
  | { type: 'done'; columns: FileColumn[] }
  | { type: 'refused'; message: string };

/**
 * Reads a bulk-invite file in a Web Worker of its own, so that however long a file takes, the
 * page stays responsive, and gets back only what the dialog shows of its columns; the worker ends
 * with the answer, or when `signal` aborts. A file above the size bound is refused at once, unread.
 */
export function readFileColumnsInWorker(
  file: File,
  { onProgress = () => {}, signal }: { onProgress?: (progress: ReadProgress) => void; signal?: AbortSignal } = {},
): Promise<FileColumn[]> {
  if (file.size > FILE_MAX_BYTES) return Promise.reject(new SheetError(FILE_TOO_LARGE_MESSAGE));
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./read-sheet.worker.ts', import.meta.url), { type: 'module', name: 'read-sheet' });
    const finish = () => {
      worker.terminate();
      signal?.removeEventListener('abort', abort);
    };
    const abort = () => {
      finish();
      reject(new DOMException('Reading the file was stopped.', 'AbortError'));
    };
    const fail = (event: Event) => {
      // A worker that dies (out of memory, a script that fails to load) leaves the user this message.
      event.preventDefault();
      finish();
      reject(new SheetError(PARSE_FAILED_MESSAGE));
    };
    signal?.addEventListener('abort', abort, { once: true });
    worker.addEventListener('error', fail);
    worker.addEventListener('messageerror', fail);
    worker.addEventListener('message', (event: MessageEvent<ReadReply>) => {
      const reply = event.data;
      if (reply.type === 'progress') {
        onProgress(reply.progress);
        return;
      }
      finish();
      if (reply.type === 'done') resolve(reply.columns);
      else reject(new SheetError(reply.message));
    });
    worker.postMessage({ file } satisfies ReadRequest);
  });
}
