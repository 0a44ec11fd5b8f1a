import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The worker's code: CommonJS, evaluated, so it runs the same from the TypeScript sources and from dist/. */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcrypt);
parentPort.on('message', ({ id, password, hash }) => {
  let matches = false;
  try { matches = bcrypt.compareSync(password, hash); } catch {}
  parentPort.postMessage({ id, matches });
});
`;

/**
 * bcrypt comparisons in a worker thread. bcryptjs is pure JavaScript: one comparison at the usual cost
 * (10) is about 85 ms of CPU, which on the event loop would hold every other request for that long;
 * here the event loop only waits for the answer. Comparisons queue in the one worker, which leaves
 * the other core of a small machine to the requests. The worker starts on first use, does not keep
 * the process alive, and is started again if it dies.
 */
export class BcryptWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (matches: boolean) => void; reject: (error: Error) => void }>();
  private nextId = 0;

  /** Whether `password` matches the bcrypt `hash` (false for a malformed hash). */
  compare(password: string, hash: string): Promise<boolean> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, password, hash });
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerSource, {
      eval: true,
      workerData: { bcrypt: createRequire(import.meta.url).resolve('bcryptjs') },
    });
    worker.unref();
    worker.on('message', ({ id, matches }: { id: number; matches: boolean }) => {
      this.pending.get(id)?.resolve(matches);
      this.pending.delete(id);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the bcrypt worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  /** Stops the worker; comparisons still queued fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
