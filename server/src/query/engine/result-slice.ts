/** Bytes of a result converted or written between two turns of the event loop (a few milliseconds of work). */
export const sliceBytes = 1024 * 1024;
