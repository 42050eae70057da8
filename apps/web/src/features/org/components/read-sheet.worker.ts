import { describeColumns } from './invite-emails';
import { PARSE_FAILED_MESSAGE, readSheet, SheetError } from './read-sheet';
import type { ReadReply, ReadRequest } from './read-sheet-in-worker';

/** The dedicated worker's global scope, as far as this worker uses it (the app compiles with the DOM library). */
type WorkerScope = {
  addEventListener: (type: 'message', listener: (event: MessageEvent<ReadRequest>) => void) => void;
  postMessage: (reply: ReadReply) => void;
};

const scope = self as unknown as WorkerScope;

scope.addEventListener('message', (event) => {
  const reply = (answer: ReadReply) => scope.postMessage(answer);
  readSheet(event.data.file, (progress) => reply({ type: 'progress', progress })).then(
    (columns) => reply({ type: 'done', columns: describeColumns(columns) }),
    (error: unknown) => reply({ type: 'refused', message: error instanceof SheetError ? error.message : PARSE_FAILED_MESSAGE }),
  );
});
