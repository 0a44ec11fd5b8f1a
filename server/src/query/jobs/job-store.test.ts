import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storeKinds, storeUnderTest, type StoreUnderTest } from '../test-support/job-stores.js';
import { waitingJob, type JobRecord } from './job-record.js';
import type { JobStore } from './job-store.js';
import { renewLease, settleJob } from './job-updates.js';
import { encodeResult, readPage } from './result-chunks.js';

const job = (query = 'SELECT 1', at = new Date()): JobRecord => waitingJob(randomUUID(), query, 'local#alice', at);

describe.each(storeKinds)('the %s job store', (kind) => {
  // Each test on a store of its own, so that no test sees another's jobs.
  let target: StoreUnderTest;
  let store: JobStore;
  beforeEach(async () => {
    target = storeUnderTest(kind);
    store = await target.open();
  });
  afterEach(async () => {
    await store.close();
    await target.destroy();
  });

  it('hands out waiting jobs oldest first, each once, and counts the waiting ones', async () => {
    const base = Date.now();
    const jobs = [
      job('SELECT 1', new Date(base)),
      job('SELECT 2', new Date(base + 1)),
      job('SELECT 3', new Date(base + 2)),
    ];
    for (const j of jobs) await store.enqueue(j);
    expect(await store.waiting()).toBe(3);
    const first = await store.claim('replica-a', base + 60_000, new Date(base).toISOString());
    expect(first).toMatchObject({
      query_id: jobs[0].query_id,
      replica: 'replica-a',
      lease_until: base + 60_000,
      started_at: new Date(base).toISOString(),
      owner: 'local#alice',
    });
    expect((await store.read(jobs[0].query_id))?.job).toEqual(first);
    expect(await store.waiting()).toBe(2);
    // A cancelled waiting job is never handed out.
    await settleJob(store, jobs[1].query_id, { status: 'CANCELLED', error: 'cancelled by request' }, {});
    expect(await store.waiting()).toBe(1);
    expect((await store.claim('replica-b', base + 60_000, new Date().toISOString()))?.query_id).toBe(jobs[2].query_id);
    expect(await store.claim('replica-b', base + 60_000, new Date().toISOString())).toBeUndefined();
  });

  it('settles a job once: the first settlement wins, the guard decides who may', async () => {
    const j = job();
    await store.enqueue(j);
    await store.claim('replica-a', Date.now() + 60_000, new Date().toISOString());
    expect(
      await settleJob(store, j.query_id, { status: 'COMPLETED', error: null }, { replica: 'replica-b' }),
    ).toBeUndefined();
    expect(
      await settleJob(store, j.query_id, { status: 'FAILED', error: 'lapsed' }, { leaseEndedBefore: Date.now() }),
    ).toBeUndefined();
    expect(await renewLease(store, j.query_id, 'replica-a', Date.now() + 120_000)).toBe(true);
    const cancelled = await settleJob(store, j.query_id, { status: 'CANCELLED', error: 'cancelled by request' }, {});
    expect(cancelled).toMatchObject({ status: 'CANCELLED', lease_until: null });
    expect(cancelled?.completed_at).not.toBeNull();
    expect(
      await settleJob(store, j.query_id, { status: 'COMPLETED', error: null }, { replica: 'replica-a' }),
    ).toBeUndefined();
    // The replica learns at its next heartbeat that it lost the job.
    expect(await renewLease(store, j.query_id, 'replica-a', Date.now() + 180_000)).toBe(false);
    expect((await store.read(j.query_id))?.job.status).toBe('CANCELLED');
  });

  it('refuses a replacement based on a stale version', async () => {
    const j = job();
    await store.enqueue(j);
    const read = (await store.read(j.query_id))!;
    expect(await store.replace(j.query_id, read.version, { ...read.job, error: 'first' })).toBe(true);
    expect(await store.replace(j.query_id, read.version, { ...read.job, error: 'second' })).toBe(false);
    expect((await store.read(j.query_id))?.job.error).toBe('first');
  });

  it('lists the jobs whose lease ended, and fails them under the lease guard only', async () => {
    const j = job();
    await store.enqueue(j);
    const now = Date.now();
    await store.claim('replica-dead', now - 1, new Date().toISOString());
    expect(await store.lapsed(now)).toContain(j.query_id);
    const failed = await settleJob(
      store,
      j.query_id,
      { status: 'FAILED', error: 'replica stopped' },
      { leaseEndedBefore: now },
    );
    expect(failed).toMatchObject({ status: 'FAILED', error: 'replica stopped' });
    expect(await store.lapsed(now)).not.toContain(j.query_id);
  });

  it('stores a result in chunks, pages it from the store, counts its bytes, and removes it', async () => {
    const j = job();
    await store.enqueue(j);
    await store.claim('replica-a', Date.now() + 60_000, new Date().toISOString());
    const rows = Array.from({ length: 2500 }, (_, i) => ({ id: i, text: `row ${i} ✓` }));
    const encoded = encodeResult(
      { columns: [{ name: 'id', type: 'INTEGER' }], rows, row_count: rows.length, truncated: false, elapsed_ms: 3 },
      { maxBytes: 10_000_000, maxRows: 10_000 },
    );
    expect(encoded.chunks.length).toBe(3);
    const before = await store.storedBytes();
    await store.writeChunks(j.query_id, encoded.chunks);
    await settleJob(store, j.query_id, { status: 'COMPLETED', error: null }, { replica: 'replica-a' }, encoded.header);
    expect((await store.storedBytes()) - before).toBe(encoded.header.bytes);
    const header = (await store.header(j.query_id))!;
    const page = await readPage(header, 990, 1020, store.chunks(j.query_id));
    expect(page.rows).toEqual(rows.slice(990, 2010));
    expect(page).toMatchObject({ offset: 990, total_row_count: 2500, next_offset: 2010 });
    expect((await readPage(header, 2400, 500, store.chunks(j.query_id))).next_offset).toBeNull();
    expect(await store.finished(Infinity, 1000, true)).toContain(j.query_id);

    await store.remove(j.query_id);
    expect(await store.read(j.query_id)).toBeUndefined();
    expect(await store.header(j.query_id)).toBeUndefined();
    expect(await store.finished(Infinity, 1000)).not.toContain(j.query_id);
    expect(await store.storedBytes()).toBe(before);
  });

  it('counts a reserved result at once, within the cap, for concurrent writers', async () => {
    const jobs = Array.from({ length: 10 }, () => job());
    for (const j of jobs) await store.enqueue(j);
    const granted = await Promise.all(jobs.map((j) => store.reserve(j.query_id, 300, 1000)));
    expect(granted.filter(Boolean)).toHaveLength(3);
    expect(await store.storedBytes()).toBe(900);
  });

  it('lists finished jobs oldest first, before a time', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const j = job();
      await store.enqueue(j);
      await settleJob(store, j.query_id, { status: 'CANCELLED', error: null }, {});
      ids.push(j.query_id);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const finished = await store.finished(Infinity, 10_000);
    expect(finished.filter((id) => ids.includes(id))).toEqual(ids);
    expect(await store.finished(0, 10)).toEqual([]);
  });

  it('answers nothing for ids that are not job ids', async () => {
    expect(await store.read('../../etc/passwd')).toBeUndefined();
    expect(await store.header('nope')).toBeUndefined();
  });
});

describe.each(['redis', 'postgres'] as const)('the %s job store shared by replicas', (kind) => {
  let target: StoreUnderTest;
  let replicas: JobStore[];
  beforeAll(async () => {
    target = storeUnderTest(kind);
    replicas = await Promise.all([target.open(), target.open(), target.open()]);
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await target.destroy();
  });

  it('never hands one job to two replicas claiming at once', async () => {
    const jobs = Array.from({ length: 30 }, () => job());
    for (const j of jobs) await replicas[0].enqueue(j);
    const claims = await Promise.all(
      Array.from({ length: 45 }, (_, i) =>
        replicas[i % 3].claim(`replica-${i % 3}`, Date.now() + 60_000, new Date().toISOString()),
      ),
    );
    const claimed = claims.filter((c) => c !== undefined).map((c) => c.query_id);
    expect(claimed.sort()).toEqual(jobs.map((j) => j.query_id).sort());
  });

  it('keeps all results within the cap when replicas reserve room at once', async () => {
    const mb = 1024 * 1024;
    const jobs = Array.from({ length: 24 }, () => job());
    for (const j of jobs) await replicas[0].enqueue(j);
    // 24 results of 3 MB against a cap of 20 MB: a check apart from the count would let them all through.
    const granted = await Promise.all(jobs.map((j, i) => replicas[i % 3].reserve(j.query_id, 3 * mb, 20 * mb)));
    expect(granted.filter(Boolean)).toHaveLength(6);
    expect(await replicas[1].storedBytes()).toBe(18 * mb);
    // A job's count is replaced, not added to; a discarded result makes room again.
    const holder = jobs[granted.indexOf(true)].query_id;
    expect(await replicas[2].reserve(holder, 4 * mb, 20 * mb)).toBe(true);
    await replicas[0].discardResult(holder);
    expect(await replicas[1].storedBytes()).toBe(15 * mb);
    for (const j of jobs) await replicas[0].remove(j.query_id);
  });

  it('lets exactly one of several racing settlements through', async () => {
    const j = job();
    await replicas[0].enqueue(j);
    await replicas[0].claim('replica-0', Date.now() + 60_000, new Date().toISOString());
    const outcomes = await Promise.all([
      settleJob(replicas[0], j.query_id, { status: 'COMPLETED', error: null }, { replica: 'replica-0' }),
      settleJob(replicas[1], j.query_id, { status: 'CANCELLED', error: 'cancelled by request' }, {}),
      settleJob(replicas[2], j.query_id, { status: 'CANCELLED', error: 'cancelled by request' }, {}),
    ]);
    expect(outcomes.filter((o) => o !== undefined)).toHaveLength(1);
  });
});

describe.each(['redis', 'postgres'] as const)('the %s job store when its server is down', (kind) => {
  it('fails each call within its bound instead of waiting', async () => {
    const settings = storeUnderTest(kind).settings;
    const dead = kind === 'redis' ? 'redis://127.0.0.1:1' : 'postgres://postgres@127.0.0.1:1/postgres';
    const { openJobStore } = await import('./open-job-store.js');
    const store = await openJobStore({ ...settings, store: { kind, url: dead } }, '/nonexistent', {
      error: () => undefined,
    });
    const started = Date.now();
    await expect(store.waiting()).rejects.toThrow();
    await expect(store.read(randomUUID())).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(8000);
    await store.close();
  });
});
