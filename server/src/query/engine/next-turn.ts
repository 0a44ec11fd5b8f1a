/**
 * Resolves on the event loop's next turn (`setImmediate`), after the I/O that is waiting has run: work that
 * would hold the loop for long (converting a large result, closing an instance) is cut or put off with it, so
 * the requests that arrive meanwhile are served between.
 */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** Bytes of a result converted or written between two turns of the event loop (a few milliseconds of work). */
export const sliceBytes = 1024 * 1024;
