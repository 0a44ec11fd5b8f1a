/**
 * Runs `fn` and rejects with `onTimeout()` when it has not settled within `ms`. JavaScript cannot stop
 * the work itself: `onTimeout` is the place to abort a signal the work listens to.
 */
export async function withTimeout<T>(fn: () => T | Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([Promise.resolve().then(fn), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
