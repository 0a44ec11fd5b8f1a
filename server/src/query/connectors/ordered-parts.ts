/**
 * Runs `count` parts, at most `lanes` at a time (each lane runs parts one after another, in order of
 * their index), and yields the indexes of the parts done since the last yield, once they and every part
 * before them are done, so a reader can use the first parts while the later ones still run (and takes
 * as many parts at once as are ready when it comes back). `run` gets the signal that stops it: aborted when
 * `signal` is, when the reader ends the iteration early, or when another part fails. A failure is thrown
 * to the reader at the first part not yet done. The iteration returns (or throws) only once no part runs
 * any more, so whatever the parts write is left alone from then on.
 */
export async function* orderedParts(
  count: number,
  lanes: number,
  signal: AbortSignal,
  run: (index: number, stop: AbortSignal) => Promise<void>,
): AsyncGenerator<number[]> {
  const stop = new AbortController();
  const stopped = AbortSignal.any([signal, stop.signal]);
  const settle: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  const finished: boolean[] = [];
  const done = Array.from(
    { length: count },
    (_, i) =>
      new Promise<void>((resolve, reject) => {
        settle[i] = { resolve, reject };
      }),
  );
  // A part nobody waits for any more (the reader stopped, or an earlier part failed) must not be unhandled.
  for (const part of done) part.catch(() => undefined);
  let next = 0;
  const lane = async () => {
    try {
      while (next < count) {
        stopped.throwIfAborted();
        const index = next++;
        await run(index, stopped);
        finished[index] = true;
        settle[index].resolve();
      }
    } catch (error) {
      stop.abort();
      // The first failure settles every part not done yet; a later one (a lane cut off by it) changes nothing.
      for (const part of settle) part.reject(error);
    }
  };
  const running = Array.from({ length: Math.min(lanes, count) }, lane);
  try {
    for (let i = 0; i < count;) {
      await done[i];
      const ready = [i++];
      while (i < count && finished[i]) ready.push(i++);
      yield ready;
    }
  } finally {
    stop.abort();
    await Promise.all(running);
  }
}
