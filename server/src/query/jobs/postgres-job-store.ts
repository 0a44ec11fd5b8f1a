import pg from 'pg';
import { isJobId, type JobRecord, type ResultHeader } from './job-record.js';
import type { JobStore, VersionedJob } from './job-store.js';
import type { ChunkReader } from './result-chunks.js';

/** How long one statement may take before the request that needs it fails (503). */
const statementTimeoutMs = 5000;

/**
 * Async jobs in PostgreSQL, shared by every replica that names the same database and prefix: table
 * `<prefix>_jobs` (one row a job: the record as JSON text, its version, and the columns the queue,
 * the leases and retention look up) and `<prefix>_chunks` (the result chunks). The tables are
 * created on first use, under an advisory lock so that replicas starting together do not race.
 */
export class PostgresJobStore implements JobStore {
  readonly kind = 'postgres';
  readonly shared = true;
  private readonly pool: pg.Pool;
  private readonly jobs: string;
  private readonly chunkTable: string;
  private ready?: Promise<void>;

  constructor(
    url: string,
    private readonly prefix: string,
    onError: (error: Error) => void,
  ) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: 4,
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 10_000,
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + 1000,
    });
    this.pool.on('error', onError);
    this.jobs = `${prefix}_jobs`;
    this.chunkTable = `${prefix}_chunks`;
  }

  /** Creates the tables when they are missing. A failure is retried by the next request. */
  open(): Promise<void> {
    this.ready ??= this.createTables().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async createTables(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [this.jobs]);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.jobs} (
        query_id uuid PRIMARY KEY,
        seq bigserial,
        version integer NOT NULL DEFAULT 0,
        status text NOT NULL,
        replica text,
        lease_until bigint,
        completed_ms bigint,
        record text NOT NULL,
        header text,
        bytes bigint NOT NULL DEFAULT 0)`);
      await client.query(
        `CREATE INDEX IF NOT EXISTS ${this.jobs}_waiting ON ${this.jobs} (seq) WHERE status = 'RUNNING' AND ` +
          `replica IS NULL`,
      );
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.chunkTable} (query_id uuid NOT NULL, n integer NOT NULL, rows text ` +
          `NOT NULL, PRIMARY KEY (query_id, n))`,
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private async query<R extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<R[]> {
    await this.open();
    return (await this.pool.query<R>(sql, values)).rows;
  }

  async enqueue(job: JobRecord): Promise<void> {
    await this.query(`INSERT INTO ${this.jobs} (query_id, status, record) VALUES ($1, $2, $3)`, [
      job.query_id,
      job.status,
      JSON.stringify(job),
    ]);
  }

  async waiting(): Promise<number> {
    const [row] = await this.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${this.jobs} WHERE status = 'RUNNING' AND replica IS NULL`,
    );
    return Number(row.n);
  }

  async claim(replica: string, leaseUntil: number, startedAt: string): Promise<JobRecord | undefined> {
    // SKIP LOCKED: replicas claiming at once each take a different job, none waits for another.
    const [row] = await this.query<{ record: string }>(
      `UPDATE ${this.jobs} SET version = version + 1, replica = $1, lease_until = $2,
         record = (record::jsonb || jsonb_build_object('started_at', $3::text, 'replica', $1::text, ` +
        `'lease_until', $2::bigint))::text
       WHERE query_id = (SELECT query_id FROM ${this.jobs} WHERE status = 'RUNNING' AND replica IS NULL ORDER ` +
        `BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING record`,
      [replica, leaseUntil, startedAt],
    );
    return row && (JSON.parse(row.record) as JobRecord);
  }

  async read(id: string): Promise<VersionedJob | undefined> {
    if (!isJobId(id)) return undefined;
    const [row] = await this.query<{ record: string; version: number }>(
      `SELECT record, version FROM ${this.jobs} WHERE query_id = $1`,
      [id],
    );
    return row && { job: JSON.parse(row.record) as JobRecord, version: row.version };
  }

  async replace(id: string, version: number, job: JobRecord, header?: ResultHeader): Promise<boolean> {
    const completed = job.status === 'RUNNING' ? null : Date.parse(job.completed_at ?? job.submitted_at);
    const rows = await this.query(
      `UPDATE ${this.jobs} SET version = version + 1, status = $3, replica = $4, lease_until = $5, completed_ms ` +
        `= $6, record = $7,
         header = coalesce($8, header), bytes = coalesce($9, bytes)
       WHERE query_id = $1 AND version = $2 RETURNING 1`,
      [
        id,
        version,
        job.status,
        job.replica,
        job.lease_until,
        completed,
        JSON.stringify(job),
        header ? JSON.stringify(header) : null,
        header?.bytes ?? null,
      ],
    );
    return rows.length === 1;
  }

  async lapsed(now: number): Promise<string[]> {
    const bound = Number.isFinite(now) ? now : Number.MAX_SAFE_INTEGER;
    const rows = await this.query<{ query_id: string }>(
      `SELECT query_id FROM ${this.jobs} WHERE status = 'RUNNING' AND lease_until < $1`,
      [bound],
    );
    return rows.map((row) => row.query_id);
  }

  async reserve(id: string, bytes: number, maxStored: number): Promise<boolean> {
    await this.open();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Reservations take turns; the sum below is read after the lock, so it includes every one before.
      // Other writers of bytes only keep or lower a job's count.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.jobs}:bytes`]);
      const { rowCount } = await client.query(
        `UPDATE ${this.jobs} SET bytes = $2 WHERE query_id = $1 AND ` +
          `(SELECT coalesce(sum(bytes), 0) FROM ${this.jobs} WHERE query_id <> $1) + $2 <= $3`,
        [id, bytes, maxStored],
      );
      await client.query('COMMIT');
      return rowCount === 1;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async writeChunks(id: string, chunks: readonly string[]): Promise<void> {
    // A few chunks per statement: each stays small, and a large result never travels as one.
    for (let i = 0; i < chunks.length; i += 8) {
      const batch = chunks.slice(i, i + 8);
      const values = batch.map((_, j) => `($1, ${i + j}, $${j + 2})`).join(', ');
      await this.query(`INSERT INTO ${this.chunkTable} (query_id, n, rows) VALUES ${values}`, [id, ...batch]);
    }
  }

  async discardResult(id: string): Promise<void> {
    await this.query(`DELETE FROM ${this.chunkTable} WHERE query_id = $1`, [id]);
    await this.query(`UPDATE ${this.jobs} SET header = NULL, bytes = 0 WHERE query_id = $1`, [id]);
  }

  async header(id: string): Promise<ResultHeader | undefined> {
    if (!isJobId(id)) return undefined;
    const [row] = await this.query<{ header: string | null }>(
      `SELECT header FROM ${this.jobs} WHERE query_id = $1 AND status = 'COMPLETED'`,
      [id],
    );
    return row?.header ? (JSON.parse(row.header) as ResultHeader) : undefined;
  }

  chunks(id: string): ChunkReader {
    return async (first, last) => {
      const rows = await this.query<{ rows: string }>(
        `SELECT rows FROM ${this.chunkTable} WHERE query_id = $1 AND n BETWEEN $2 AND $3 ORDER BY n`,
        [id, first, last],
      );
      return rows.map((row) => row.rows);
    };
  }

  async finished(before: number, limit: number, withResult = false): Promise<string[]> {
    const bound = Number.isFinite(before) ? before : Number.MAX_SAFE_INTEGER;
    const rows = await this.query<{ query_id: string }>(
      `SELECT query_id FROM ${this.jobs} WHERE status <> 'RUNNING' AND completed_ms < $1 ` +
        `${withResult ? 'AND bytes > 0' : ''} ORDER BY completed_ms LIMIT $2`,
      [bound, limit],
    );
    return rows.map((row) => row.query_id);
  }

  async storedBytes(): Promise<number> {
    const [row] = await this.query<{ total: string | null }>(`SELECT sum(bytes) AS total FROM ${this.jobs}`);
    return Number(row.total ?? 0);
  }

  async remove(id: string): Promise<void> {
    if (!isJobId(id)) return;
    await this.query(`DELETE FROM ${this.chunkTable} WHERE query_id = $1`, [id]);
    await this.query(`DELETE FROM ${this.jobs} WHERE query_id = $1`, [id]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
