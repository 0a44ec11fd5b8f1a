import { FreshInstances, dispose, type InstanceLane, type QueryInstance } from './fresh-instances.js';

/**
 * The short lane's DuckDB instances. A query that reads no table (no FROM anywhere, see `readsNoTable`) can leave
 * nothing behind in its instance: it creates no table, the configuration is locked before it comes, and what a
 * SELECT may change (the random seed) belongs to its connection. So its instance is kept for the next short query,
 * which gets a connection of its own: creating an instance (10-20 ms, several times that beside large queries)
 * was most of `SELECT 1`'s time. An instance whose query failed or was stopped is closed and replaced, so a fault
 * stays with the query that met it.
 */
export class ShortLaneInstances implements InstanceLane {
  private readonly created: FreshInstances;
  /** Instances whose last query ended normally, without a connection. */
  private readonly idle: QueryInstance[] = [];
  private closed = false;

  /**
   * `options` are DuckDB settings; `sandbox` the statements that lock each new instance down (the time zone
   * set globally, so every later connection has it).
   */
  constructor(options: Record<string, string>, sandbox: string) {
    this.created = new FreshInstances(options, sandbox);
  }

  /** An instance kept from an earlier query, on a new connection; or a new one. */
  async take(): Promise<QueryInstance> {
    const kept = this.idle.pop();
    if (!kept) return this.created.take();
    try {
      return { ...kept, connection: await kept.instance.connect() };
    } catch (error) {
      void dispose(kept);
      throw error;
    }
  }

  /** Keeps the instance for the next short query when its query ended normally; else closes it. */
  release(used: QueryInstance, endedNormally: boolean): Promise<void> {
    if (!endedNormally || this.closed) return this.created.release(used);
    used.connection?.closeSync();
    this.idle.push({ instance: used.instance, workDir: used.workDir });
    return Promise.resolve();
  }

  /** Closes the kept instances and the prepared one. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.idle.splice(0).map(dispose), this.created.close()]);
  }
}
