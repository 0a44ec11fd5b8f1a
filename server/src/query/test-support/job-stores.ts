import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { JobStoreSettings } from '../../core/config.js';
import { serviceUrls, uniqueName } from './query-fixtures.js';
import type { JobStore } from '../jobs/job-store.js';
import { openJobStore } from '../jobs/open-job-store.js';

/** A job store of one kind for a test, under a unique prefix (or folder), and how to remove everything it wrote. */
export interface StoreUnderTest {
  settings: JobStoreSettings;
  dataDir: string;
  /** Opens one more client of the same store: another replica. */
  open(): Promise<JobStore>;
  /** Removes every key, table or file of the store. */
  destroy(): Promise<void>;
}

const quiet = { error: () => undefined };

/** The three kinds of store, each on this machine's services. */
export const storeKinds = ['folder', 'redis', 'postgres'] as const;

/** A fresh store of `kind` with a unique namespace, lease `leaseMs`. */
export function storeUnderTest(kind: (typeof storeKinds)[number], leaseMs = 15_000): StoreUnderTest {
  const prefix = uniqueName('jobs');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-jobs-'));
  const store: JobStoreSettings['store'] =
    kind === 'folder'
      ? { kind }
      : { kind, url: kind === 'redis' ? serviceUrls.redis : `${serviceUrls.postgres}/postgres` };
  const settings: JobStoreSettings = { store, prefix, leaseMs };
  return {
    settings,
    dataDir,
    open: () => openJobStore(settings, dataDir, quiet),
    destroy: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (kind === 'redis') {
        const client = new Redis(serviceUrls.redis);
        const keys = await client.keys(`{${prefix}}:*`);
        if (keys.length > 0) await client.del(...keys);
        await client.quit();
      } else if (kind === 'postgres') {
        const client = new pg.Client({ connectionString: `${serviceUrls.postgres}/postgres` });
        await client.connect();
        await client.query(`DROP TABLE IF EXISTS ${prefix}_jobs, ${prefix}_chunks`);
        await client.end();
      }
    },
  };
}
