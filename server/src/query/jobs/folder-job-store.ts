import fs from 'node:fs';
import path from 'node:path';
import { isJobId, type JobRecord, type ResultHeader } from './job-record.js';
import type { JobStore, VersionedJob } from './job-store.js';
import type { ChunkReader } from './result-chunks.js';

/** Writes a file whole or not at all (temporary file, then rename). */
function writeAtomically(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, content);
  fs.renameSync(temporary, file);
}

const completedAt = (job: JobRecord): number => Date.parse(job.completed_at ?? job.submitted_at);

/**
 * Async jobs in a folder of this server, `<DATA_DIR>/query-jobs` (the default store, for one
 * replica): `<id>.json` holds the record, `<id>.header.json` and `<id>.rows` the result (its chunks,
 * one a line). Records are also kept in memory with their versions, and each change is made
 * synchronously, so it is atomic within the process that owns the folder.
 */
export class FolderJobStore implements JobStore {
  readonly kind = 'folder';
  readonly shared = false;
  readonly dir: string;
  private readonly jobs = new Map<string, VersionedJob>();
  private readonly resultBytes = new Map<string, number>();

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'query-jobs');
    fs.mkdirSync(this.dir, { recursive: true });
    for (const name of fs.readdirSync(this.dir)) {
      // Leftovers of a write that a crash interrupted.
      if (name.endsWith('.tmp')) fs.rmSync(path.join(this.dir, name), { force: true });
      const id = name.slice(0, -'.json'.length);
      if (!name.endsWith('.json') || !isJobId(id)) continue;
      const job = this.readFile<JobRecord>(id, '.json');
      if (!job) continue;
      // Records written before jobs had owners and leases: a started one held a lease that has ended.
      const started = job.started_at !== null;
      this.jobs.set(id, {
        job: {
          ...job,
          owner: job.owner ?? null,
          replica: job.replica ?? (started ? 'an earlier run' : null),
          lease_until: job.lease_until ?? (started ? 0 : null),
        },
        version: 0,
      });
      const header = job.status === 'COMPLETED' ? this.readFile<ResultHeader>(id, '.header.json') : undefined;
      if (header) this.resultBytes.set(id, header.bytes ?? 0);
    }
  }

  private file(id: string, suffix: string): string {
    if (!isJobId(id)) throw new Error(`not a job id: ${id}`);
    return path.join(this.dir, `${id}${suffix}`);
  }

  private readFile<T>(id: string, suffix: string): T | undefined {
    try {
      return JSON.parse(fs.readFileSync(this.file(id, suffix), 'utf8')) as T;
    } catch {
      return undefined;
    }
  }

  private save(job: JobRecord, version: number): void {
    writeAtomically(this.file(job.query_id, '.json'), JSON.stringify(job));
    this.jobs.set(job.query_id, { job, version });
  }

  private waitingJobs(): JobRecord[] {
    return [...this.jobs.values()]
      .map(({ job }) => job)
      .filter((job) => job.status === 'RUNNING' && job.replica === null);
  }

  async enqueue(job: JobRecord): Promise<void> {
    this.save(job, 0);
  }

  async waiting(): Promise<number> {
    return this.waitingJobs().length;
  }

  async claim(replica: string, leaseUntil: number, startedAt: string): Promise<JobRecord | undefined> {
    const next = this.waitingJobs().sort((a, b) => a.submitted_at.localeCompare(b.submitted_at))[0];
    if (!next) return undefined;
    const claimed = { ...next, started_at: startedAt, replica, lease_until: leaseUntil };
    this.save(claimed, this.jobs.get(next.query_id)!.version + 1);
    return claimed;
  }

  async read(id: string): Promise<VersionedJob | undefined> {
    return isJobId(id) ? this.jobs.get(id) : undefined;
  }

  async replace(id: string, version: number, job: JobRecord, header?: ResultHeader): Promise<boolean> {
    if (this.jobs.get(id)?.version !== version) return false;
    if (header) {
      writeAtomically(this.file(id, '.header.json'), JSON.stringify(header));
      this.resultBytes.set(id, header.bytes);
    }
    this.save(job, version + 1);
    return true;
  }

  async lapsed(now: number): Promise<string[]> {
    return [...this.jobs.values()]
      .filter(({ job }) => job.status === 'RUNNING' && job.lease_until !== null && job.lease_until < now)
      .map(({ job }) => job.query_id);
  }

  async reserve(id: string, bytes: number, maxStored: number): Promise<boolean> {
    // One process owns the folder, and nothing below awaits: the check and the count are one step.
    const others = this.totalBytes() - (this.resultBytes.get(id) ?? 0);
    if (others + bytes > maxStored) return false;
    this.resultBytes.set(id, bytes);
    return true;
  }

  async writeChunks(id: string, chunks: readonly string[]): Promise<void> {
    const handle = await fs.promises.open(this.file(id, '.rows'), 'w');
    try {
      for (const chunk of chunks) await handle.write(`${chunk}\n`);
    } finally {
      await handle.close();
    }
  }

  async discardResult(id: string): Promise<void> {
    // `.rows.ndjson`: the result format before chunks.
    for (const suffix of ['.header.json', '.rows', '.rows.ndjson']) fs.rmSync(this.file(id, suffix), { force: true });
    this.resultBytes.delete(id);
  }

  async header(id: string): Promise<ResultHeader | undefined> {
    const header =
      this.jobs.get(id)?.job.status === 'COMPLETED' ? this.readFile<ResultHeader>(id, '.header.json') : undefined;
    // A result stored before chunks cannot be paged: it answers as gone.
    return Array.isArray(header?.chunk_starts) ? header : undefined;
  }

  chunks(id: string): ChunkReader {
    return async (first, last) => {
      const header = await this.header(id);
      if (!header) return [];
      // Chunk i starts after the chunks before it, each followed by its newline.
      const position = header.chunk_bytes.slice(0, first).reduce((sum, n) => sum + n + 1, 0);
      const length = header.chunk_bytes.slice(first, last + 1).reduce((sum, n) => sum + n + 1, 0);
      const handle = await fs.promises.open(this.file(id, '.rows'), 'r');
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        return buffer
          .subarray(0, bytesRead)
          .toString('utf8')
          .split('\n')
          .slice(0, last - first + 1);
      } finally {
        await handle.close();
      }
    };
  }

  async finished(before: number, limit: number, withResult = false): Promise<string[]> {
    return [...this.jobs.values()]
      .map(({ job }) => job)
      .filter(
        (job) =>
          job.status !== 'RUNNING' &&
          completedAt(job) < before &&
          (!withResult || (this.resultBytes.get(job.query_id) ?? 0) > 0),
      )
      .sort((a, b) => completedAt(a) - completedAt(b))
      .slice(0, limit)
      .map((job) => job.query_id);
  }

  async storedBytes(): Promise<number> {
    return this.totalBytes();
  }

  private totalBytes(): number {
    let total = 0;
    for (const bytes of this.resultBytes.values()) total += bytes;
    return total;
  }

  async remove(id: string): Promise<void> {
    if (!isJobId(id)) return;
    await this.discardResult(id);
    fs.rmSync(this.file(id, '.json'), { force: true });
    this.jobs.delete(id);
  }

  async close(): Promise<void> {}
}
