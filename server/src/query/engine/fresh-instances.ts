import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { makePrivateFolder } from '../../runtime/private-folders.js';
import { nextTurn } from '../../core/next-turn.js';

/** An in-memory DuckDB instance for one query, with its private folder (spill files). */
export interface QueryInstance {
  instance: DuckDBInstance;
  workDir: string;
  /** A connection on which the instances' `prepare` statements have run, when they have one. */
  connection?: DuckDBConnection;
}

/** Closes `used` and removes its folder; closing waits for DuckDB's threads and frees its memory. */
export async function dispose(used: QueryInstance): Promise<void> {
  used.connection?.closeSync();
  used.instance.closeSync();
  await fs.promises.rm(used.workDir, { recursive: true, force: true });
}

/** Where a lane of the engine takes the DuckDB instance for each query, and gives it back. */
export interface InstanceLane {
  take(): Promise<QueryInstance>;
  /** Gives back an instance taken; `endedNormally` is false when its query failed or was stopped. */
  release(used: QueryInstance, endedNormally: boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * Fresh DuckDB instances, each used by one query and then closed, so queries share no state. Creating
 * one takes 10-20 ms, most of a small query's time: the next one is created when a query ends, off the
 * next query's path, and handed to it ready.
 */
export class FreshInstances implements InstanceLane {
  private spare?: Promise<QueryInstance>;
  private closed = false;
  /** Instances released and not yet closed. */
  private readonly disposing = new Set<Promise<void>>();

  /**
   * `options` are DuckDB settings; each instance spills into its own folder. `prepare`, when given, runs on
   * a connection of each instance as it is created, and that connection comes with the instance.
   */
  constructor(
    private readonly options: Record<string, string>,
    private readonly prepare?: string,
  ) {}

  private async create(): Promise<QueryInstance> {
    const workDir = makePrivateFolder('query');
    try {
      // DuckDB's home (where its secret and extension folders default to) is the query's folder too,
      // so nothing the engine can show names the server's own home directory.
      const folders = {
        temp_directory: path.join(workDir, 'spill'),
        home_directory: workDir,
        secret_directory: path.join(workDir, 'secrets'),
        extension_directory: path.join(workDir, 'extensions'),
      };
      const instance = await DuckDBInstance.create(':memory:', { ...this.options, ...folders });
      if (this.prepare === undefined) return { instance, workDir };
      try {
        const connection = await instance.connect();
        await connection.run(this.prepare);
        return { instance, workDir, connection };
      } catch (error) {
        instance.closeSync();
        throw error;
      }
    } catch (error) {
      fs.rmSync(workDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** An unused instance: the one prepared in advance, or a new one. */
  async take(): Promise<QueryInstance> {
    const spare = this.spare;
    this.spare = undefined;
    const ready = await spare?.catch(() => undefined);
    return ready ?? this.create();
  }

  /**
   * Closes an instance its query is done with, removes its folder, and prepares the next one. The closing
   * (10-40 ms on the event loop) happens on a later turn, so the query's answer does not wait for it; the
   * promise resolves once it is done.
   */
  release(used: QueryInstance): Promise<void> {
    // Nothing waits on the closing, and the next query never sees this instance, so a failure is dropped here.
    const disposed = nextTurn()
      .then(() => dispose(used))
      .catch(() => undefined)
      .finally(() => this.disposing.delete(disposed));
    this.disposing.add(disposed);
    if (!this.closed && !this.spare) {
      this.spare = this.create();
      // A failure here is met again, and reported, by the query that would have used it.
      this.spare.catch(() => undefined);
    }
    return disposed;
  }

  /**
   * Closes the prepared instance and waits for the released ones to be closed; `take` still works (unprepared)
   * for queries already under way.
   */
  async close(): Promise<void> {
    this.closed = true;
    const spare = await this.spare?.catch(() => undefined);
    this.spare = undefined;
    if (spare) await dispose(spare);
    await Promise.all(this.disposing);
  }
}
