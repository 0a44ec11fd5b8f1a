import type { JobStoreSettings } from '../../core/config.js';
import { FolderJobStore } from './folder-job-store.js';
import type { JobLog } from './job-runner.js';
import type { JobStore } from './job-store.js';
import { PostgresJobStore } from './postgres-job-store.js';
import { RedisJobStore } from './redis-job-store.js';
import { timedJobStore } from './timed-job-store.js';

/** How often at most a shared store's connection errors are logged. */
const errorLogIntervalMs = 30_000;

/**
 * Opens the job store `QUERY_JOB_STORE` names, its operations timed (`query_job_store_seconds`). A shared
 * store that cannot be reached yet does not stop the server: the async endpoints answer 503 until it can,
 * everything else is unaffected.
 */
export async function openJobStore(settings: JobStoreSettings, dataDir: string, log: JobLog): Promise<JobStore> {
  const { store } = settings;
  if (store.kind === 'folder') return timedJobStore(new FolderJobStore(dataDir));
  let lastLoggedAt = 0;
  const onError = (error: Error) => {
    if (Date.now() - lastLoggedAt < errorLogIntervalMs) return;
    lastLoggedAt = Date.now();
    log.error({ reason: error.message, store: store.kind }, 'async job store unavailable');
  };
  const shared =
    store.kind === 'redis'
      ? new RedisJobStore(store.url, settings.prefix, onError)
      : new PostgresJobStore(store.url, settings.prefix, onError);
  await shared.open().catch(onError);
  return timedJobStore(shared);
}
