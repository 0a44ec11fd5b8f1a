import type { FastifyInstance } from 'fastify';

const base = '/api/v1/query';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls an async job's status (with `headers`) until `done` holds; throws after about 5 s. */
async function pollStatus(
  app: FastifyInstance,
  id: string,
  done: (status: Record<string, unknown>) => boolean,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const status = (await app.inject({ method: 'GET', url: `${base}/async/${id}/status`, headers })).json<
      Record<string, unknown>
    >();
    if (done(status)) return status;
    await sleep(25);
  }
  throw new Error(`job ${id} never reached the awaited state`);
}

/** Polls a job until it leaves RUNNING, and answers its status. */
export const settle = (app: FastifyInstance, id: string, headers: Record<string, string> = {}) =>
  pollStatus(app, id, (status) => status.status !== 'RUNNING', headers);

/** Polls a job until a worker has started it. */
export const waitStarted = async (app: FastifyInstance, id: string): Promise<void> =>
  void (await pollStatus(app, id, (status) => status.started_at !== null));
