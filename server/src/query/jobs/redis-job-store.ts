import { Redis } from 'ioredis';
import { isJobId, type JobRecord, type ResultHeader } from './job-record.js';
import type { JobStore, VersionedJob } from './job-store.js';
import type { ChunkReader } from './result-chunks.js';

/**
 * Takes the oldest waiting job: pops ids off the queue until one is still waiting (a cancelled one
 * was settled meanwhile), marks it started by the replica with its lease, in one step.
 * KEYS: queue, leases. ARGV: job key prefix, replica, lease end, start time.
 */
const claimScript = `
while true do
  local id = redis.call('LPOP', KEYS[1])
  if not id then return false end
  local key = ARGV[1] .. id
  local raw = redis.call('HGET', key, 'record')
  if raw then
    local job = cjson.decode(raw)
    if job.status == 'RUNNING' and job.replica == cjson.null then
      job.started_at = ARGV[4]
      job.replica = ARGV[2]
      job.lease_until = tonumber(ARGV[3])
      local claimed = cjson.encode(job)
      redis.call('HSET', key, 'record', claimed)
      redis.call('HINCRBY', key, 'version', 1)
      redis.call('ZADD', KEYS[2], ARGV[3], id)
      return claimed
    end
  end
end`;

/**
 * Compare and set of one record, keeping the indexes in step: the lease set, the finished set
 * (by completion time), the queue, and the result sizes and results (by completion time).
 * KEYS: job, leases, finished, queue, sizes, results. ARGV: id, expected version, record, lease end or '',
 * completion time or '', header or '', result bytes.
 */
const replaceScript = `
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'record', ARGV[3], 'version', tostring(tonumber(ARGV[2]) + 1))
if ARGV[4] ~= '' then redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1]) else redis.call('ZREM', KEYS[2], ARGV[1]) end
if ARGV[5] ~= '' then
  redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
  redis.call('LREM', KEYS[4], 0, ARGV[1])
end
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[1], 'header', ARGV[6])
  redis.call('HSET', KEYS[5], ARGV[1], ARGV[7])
  if tonumber(ARGV[7]) > 0 then redis.call('ZADD', KEYS[6], ARGV[5], ARGV[1]) end
end
return 1`;

/**
 * Counts a job's result bytes if all results together stay within the cap, in one step.
 * KEYS: sizes. ARGV: id, bytes, cap.
 */
const reserveScript = `
local total = 0
local sizes = redis.call('HGETALL', KEYS[1])
for i = 1, #sizes, 2 do
  if sizes[i] ~= ARGV[1] then total = total + tonumber(sizes[i + 1]) end
end
if total + tonumber(ARGV[2]) > tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

/** The exclusive score bound "below `n`" (any score for an infinite `n`). */
const below = (n: number): string => (Number.isFinite(n) ? `(${n}` : '+inf');

/** How long one Redis command may take before the request that needs it fails (503). */
const commandTimeoutMs = 5000;

interface JobScripts {
  claimJob(
    queue: string,
    leases: string,
    prefix: string,
    replica: string,
    leaseUntil: number,
    startedAt: string,
  ): Promise<string | null>;
  replaceJob(
    job: string,
    leases: string,
    finished: string,
    queue: string,
    sizes: string,
    results: string,
    id: string,
    version: string,
    record: string,
    lease: string,
    completed: string,
    header: string,
    bytes: string,
  ): Promise<number>;
  reserveBytes(sizes: string, id: string, bytes: number, cap: number): Promise<number>;
}

/**
 * Async jobs in Redis, shared by every replica that names the same server and prefix. Keys, all
 * under `{<prefix>}:` (one hash slot, for Redis Cluster): `job:<id>` (hash: record, version,
 * header), `rows:<id>` (list of result chunks), `queue` (waiting ids), `leases` and `finished`
 * (sorted sets by lease end and completion time), `sizes` (result bytes per job), `results` (jobs holding a result,
 * by completion time). The client never
 * queues commands while disconnected, so an outage fails requests at once instead of holding them.
 */
export class RedisJobStore implements JobStore {
  readonly kind = 'redis';
  readonly shared = true;
  private readonly client: Redis & JobScripts;
  private readonly keys: { queue: string; leases: string; finished: string; sizes: string; results: string };

  constructor(
    url: string,
    private readonly prefix: string,
    onError: (error: Error) => void,
  ) {
    this.client = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      commandTimeout: commandTimeoutMs,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    }) as Redis & JobScripts;
    this.client.defineCommand('claimJob', { numberOfKeys: 2, lua: claimScript });
    this.client.defineCommand('replaceJob', { numberOfKeys: 6, lua: replaceScript });
    this.client.defineCommand('reserveBytes', { numberOfKeys: 1, lua: reserveScript });
    this.client.on('error', onError);
    const base = `{${prefix}}:`;
    this.keys = {
      queue: `${base}queue`,
      leases: `${base}leases`,
      finished: `${base}finished`,
      sizes: `${base}sizes`,
      results: `${base}results`,
    };
  }

  /** Connects; the store keeps reconnecting by itself after an outage. */
  async open(): Promise<void> {
    await this.client.connect();
  }

  private job(id: string): string {
    return `{${this.prefix}}:job:${id}`;
  }

  private rows(id: string): string {
    return `{${this.prefix}}:rows:${id}`;
  }

  async enqueue(job: JobRecord): Promise<void> {
    await this.client
      .multi()
      .hset(this.job(job.query_id), 'record', JSON.stringify(job), 'version', '0')
      .rpush(this.keys.queue, job.query_id)
      .exec();
  }

  async waiting(): Promise<number> {
    return this.client.llen(this.keys.queue);
  }

  async claim(replica: string, leaseUntil: number, startedAt: string): Promise<JobRecord | undefined> {
    const claimed = await this.client.claimJob(
      this.keys.queue,
      this.keys.leases,
      `{${this.prefix}}:job:`,
      replica,
      leaseUntil,
      startedAt,
    );
    return claimed === null ? undefined : (JSON.parse(claimed) as JobRecord);
  }

  async read(id: string): Promise<VersionedJob | undefined> {
    if (!isJobId(id)) return undefined;
    const [record, version] = await this.client.hmget(this.job(id), 'record', 'version');
    return record === null ? undefined : { job: JSON.parse(record) as JobRecord, version: Number(version) };
  }

  async replace(id: string, version: number, job: JobRecord, header?: ResultHeader): Promise<boolean> {
    const completed = job.status === 'RUNNING' ? '' : String(Date.parse(job.completed_at ?? job.submitted_at));
    const replaced = await this.client.replaceJob(
      this.job(id),
      this.keys.leases,
      this.keys.finished,
      this.keys.queue,
      this.keys.sizes,
      this.keys.results,
      id,
      String(version),
      JSON.stringify(job),
      job.lease_until === null ? '' : String(job.lease_until),
      completed,
      header ? JSON.stringify(header) : '',
      String(header?.bytes ?? 0),
    );
    return replaced === 1;
  }

  async lapsed(now: number): Promise<string[]> {
    return this.client.zrangebyscore(this.keys.leases, '-inf', below(now));
  }

  async reserve(id: string, bytes: number, maxStored: number): Promise<boolean> {
    return (await this.client.reserveBytes(this.keys.sizes, id, bytes, maxStored)) === 1;
  }

  async writeChunks(id: string, chunks: readonly string[]): Promise<void> {
    // A few chunks per command: each command stays small, and a large result never waits as one.
    for (let i = 0; i < chunks.length; i += 8) await this.client.rpush(this.rows(id), ...chunks.slice(i, i + 8));
  }

  async discardResult(id: string): Promise<void> {
    await this.client
      .multi()
      .del(this.rows(id))
      .hdel(this.job(id), 'header')
      .hdel(this.keys.sizes, id)
      .zrem(this.keys.results, id)
      .exec();
  }

  async header(id: string): Promise<ResultHeader | undefined> {
    if (!isJobId(id)) return undefined;
    const raw = await this.client.hget(this.job(id), 'header');
    return raw === null ? undefined : (JSON.parse(raw) as ResultHeader);
  }

  chunks(id: string): ChunkReader {
    return (first, last) => this.client.lrange(this.rows(id), first, last);
  }

  async finished(before: number, limit: number, withResult = false): Promise<string[]> {
    return this.client.zrangebyscore(
      withResult ? this.keys.results : this.keys.finished,
      '-inf',
      below(before),
      'LIMIT',
      0,
      limit,
    );
  }

  async storedBytes(): Promise<number> {
    const sizes = await this.client.hvals(this.keys.sizes);
    return sizes.reduce((sum, bytes) => sum + Number(bytes), 0);
  }

  async remove(id: string): Promise<void> {
    if (!isJobId(id)) return;
    await this.client
      .multi()
      .del(this.job(id), this.rows(id))
      .hdel(this.keys.sizes, id)
      .zrem(this.keys.results, id)
      .zrem(this.keys.finished, id)
      .zrem(this.keys.leases, id)
      .lrem(this.keys.queue, 0, id)
      .exec();
  }

  async close(): Promise<void> {
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}
