/**
 * Resolves on the event loop's next turn (`setImmediate`), after the I/O that is waiting has run: work that
 * would hold the loop for long (converting a large result, building a large document, closing an instance) is
 * cut or put off with it, so the requests that arrive meanwhile are served between.
 */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
