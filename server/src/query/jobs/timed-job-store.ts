import { timeStoreCall } from '../../observability/job-metrics.js';
import type { JobStore } from './job-store.js';

/** The store's operations that `query_job_store_seconds` times (the label's closed set). */
const timedOperations = new Set<string>([
  'enqueue',
  'waiting',
  'claim',
  'read',
  'replace',
  'lapsed',
  'reserve',
  'writeChunks',
  'discardResult',
  'header',
  'finished',
  'storedBytes',
  'remove',
]);

/**
 * `store` with the time of each of its operations recorded by store kind and operation. A proxy rather than
 * a wrapper class, so a method added to {@link JobStore} is passed through without one more line here.
 */
export function timedJobStore(store: JobStore): JobStore {
  const wrapped = new Map<string, unknown>();
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const name = String(key);
      let method = wrapped.get(name);
      if (method === undefined) {
        const call = value as (...args: unknown[]) => Promise<unknown>;
        method = timedOperations.has(name)
          ? (...args: unknown[]) => timeStoreCall(target.kind, name, () => call.apply(target, args))
          : call.bind(target);
        wrapped.set(name, method);
      }
      return method;
    },
  });
}
