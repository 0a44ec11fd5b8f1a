import http from 'node:http';

/** One server-sent event: `id` is the hub's number (0 for `hello`), `instance` the server start it names. */
export interface StreamEvent {
  id: number;
  instance?: string;
  event: string;
  data: unknown;
}

/**
 * Reads the workbench's server-sent events from a listening server (`base`, with `token`) until `until`
 * returns true for the events so far; rejects after 10 s with the events seen.
 */
export function readWorkbenchEvents(
  base: string,
  token: string,
  headers: Record<string, string>,
  until: (events: StreamEvent[]) => boolean,
): Promise<StreamEvent[]> {
  return new Promise((resolve, reject) => {
    const events: StreamEvent[] = [];
    const request = http.get(
      `${base}/api/workbench/events?token=${encodeURIComponent(token)}`,
      { headers },
      (response) => {
        if (response.statusCode !== 200) return reject(new Error(`status ${response.statusCode}`));
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields = Object.fromEntries(
              frame
                .split('\n')
                .filter((l) => !l.startsWith(':'))
                .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
            );
            if (fields.event) {
              const id = fields.id === undefined ? 0 : Number(fields.id.split(':')[1]);
              events.push({
                id,
                instance: fields.id?.split(':')[0],
                event: fields.event,
                data: JSON.parse(fields.data),
              });
            }
          }
          if (until(events)) {
            request.destroy();
            resolve(events);
          }
        });
      },
    );
    request.on('error', reject);
    setTimeout(() => {
      request.destroy();
      reject(new Error(`timed out with events ${JSON.stringify(events.map((e) => e.event))}`));
    }, 10_000).unref();
  });
}
