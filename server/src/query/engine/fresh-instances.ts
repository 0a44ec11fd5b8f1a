import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { makePrivateFolder } from '../../runtime/private-folders.js';

/** An in-memory DuckDB instance for one query, with its private folder (spill files). */
export interface QueryInstance {
  instance: DuckDBInstance;
  workDir: string;
}

function dispose(used: QueryInstance): void {
  used.instance.closeSync();
  fs.rmSync(used.workDir, { recursive: true, force: true });
}

/**
 * Fresh DuckDB instances, each used by one query and then closed, so queries share no state. Creating
 * one takes 10-20 ms, most of a small query's time: the next one is created when a query ends, off the
 * next query's path, and handed to it ready.
 */
export class FreshInstances {
  private spare?: Promise<QueryInstance>;
  private closed = false;

  /** `options` are DuckDB settings; each instance spills into its own folder. */
  constructor(private readonly options: Record<string, string>) {}

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
      return { instance: await DuckDBInstance.create(':memory:', { ...this.options, ...folders }), workDir };
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

  /** Closes an instance its query is done with, removes its folder, and prepares the next one. */
  release(used: QueryInstance): void {
    dispose(used);
    if (this.closed || this.spare) return;
    this.spare = this.create();
    // A failure here is met again, and reported, by the query that would have used it.
    this.spare.catch(() => undefined);
  }

  /** Closes the prepared instance; `take` still works (unprepared) for queries already under way. */
  async close(): Promise<void> {
    this.closed = true;
    const spare = await this.spare?.catch(() => undefined);
    this.spare = undefined;
    if (spare) dispose(spare);
  }
}
