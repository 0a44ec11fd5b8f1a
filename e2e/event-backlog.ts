/** How many events the server keeps for a client that connects (server/src/workbench/event-hub.ts). */
export const eventBacklogCapacity = 500;

/** The server's address and the launch's token, from the workbench URL it printed. */
function serverOf(workbenchUrl: string): { origin: string; token: string } {
  const url = new URL(workbenchUrl);
  return { origin: url.origin, token: url.searchParams.get('token') ?? '' };
}

/**
 * Opens the event stream of the server and calls `onEvent` with the count of events read so far (the
 * replay first), after the `hello` that says up to which event id the replay goes, until `onEvent` returns
 * true. Resolves with that count.
 */
async function readEvents(
  workbenchUrl: string,
  onEvent: (count: number, replayUntil: number, id: number) => boolean,
): Promise<number> {
  const { origin, token } = serverOf(workbenchUrl);
  const stop = new AbortController();
  const response = await fetch(`${origin}/api/workbench/events?token=${token}`, { signal: stop.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let replayUntil = -1;
  let count = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`The event stream ended after ${count} events`);
      buffered += value;
      const frames = buffered.split('\n\n');
      buffered = frames.pop()!;
      for (const frame of frames) {
        const hello = /^event: hello\ndata: (.*)$/m.exec(frame);
        if (hello) replayUntil = (JSON.parse(hello[1]) as { replayUntil: number }).replayUntil;
        const id = /^id: [^:\n]+:(\d+)$/m.exec(frame);
        if (id && onEvent(++count, replayUntil, Number(id[1]))) return count;
      }
    }
  } finally {
    stop.abort();
  }
}

/**
 * Fills the server's event backlog: with an event stream open (the server captures requests only then), sends
 * requests to the example API until the stream has seen as many events as the server keeps. Resolves with the
 * number of events a client that connects now is sent before anything new: the backlog.
 */
export async function fillEventBacklog(workbenchUrl: string): Promise<number> {
  const { origin } = serverOf(workbenchUrl);
  let seen = 0;
  const filled = readEvents(workbenchUrl, (count) => (seen = count) >= eventBacklogCapacity);
  for (let sent = 0; seen < eventBacklogCapacity; sent += 20) {
    if (sent > 10 * eventBacklogCapacity) throw new Error(`${sent} requests made ${seen} events`);
    const batch = Array.from({ length: 20 }, () =>
      fetch(`${origin}/api/adaptive/library-api/books`).then((r) => r.text()),
    );
    await Promise.all(batch);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await filled;
  return readEvents(workbenchUrl, (_count, replayUntil, id) => id >= replayUntil);
}
