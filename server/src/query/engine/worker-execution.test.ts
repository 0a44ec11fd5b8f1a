import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultFromWorkers } from './worker-execution.js';

let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  connection = await instance.connect();
  // As a large query's instance: one worker thread, and no work on the thread that calls.
  await connection.run('SET external_threads = 0; SET threads = 1');
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

const rowsOf = async (sql: string, signal = new AbortController().signal) =>
  (await resultFromWorkers(connection, sql, signal)).getRowObjectsJS();

describe('resultFromWorkers', () => {
  it('answers what DuckDB answers, for a query whose work the workers do and one with none', async () => {
    expect(await rowsOf('SELECT sum(a.range * b.range) AS s FROM range(300) a, range(300) b')).toEqual([
      { s: 2011522500n },
    ]);
    expect(await rowsOf('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('streams a result larger than one chunk to its last row', async () => {
    const rows = await rowsOf('SELECT range AS n FROM range(100000) ORDER BY n DESC');
    expect(rows).toHaveLength(100000);
    expect(rows[0]).toEqual({ n: 99999n });
  });

  it("fails with DuckDB's own message (a finished query is reported as an error state without one)", async () => {
    await expect(rowsOf("SELECT error('boom') FROM range(10)")).rejects.toThrow(/^Invalid Input Error: boom/);
    await expect(rowsOf('SELECT * FROM no_such_table')).rejects.toThrow(/^Catalog Error/);
  });

  it('stops waiting with the reason of an abort, even where no worker would ever finish', async () => {
    const idle = await DuckDBInstance.create(':memory:', { threads: '1' });
    const noWorkers = await idle.connect();
    try {
      const stop = new AbortController();
      const waiting = resultFromWorkers(noWorkers, 'SELECT count(*) FROM range(1000000)', stop.signal);
      stop.abort(new Error('deadline'));
      await expect(waiting).rejects.toThrow('deadline');
    } finally {
      noWorkers.closeSync();
      idle.closeSync();
    }
  });

  it('ends a query interrupted while its workers compute', async () => {
    const stop = new AbortController();
    const waiting = resultFromWorkers(
      connection,
      'SELECT sum(a.range * b.range) FROM range(100000) a, range(100000) b',
      stop.signal,
    );
    setTimeout(() => {
      connection.interrupt();
      stop.abort(new Error('stopped'));
    }, 50);
    await expect(waiting).rejects.toThrow(/stopped|Interrupt/);
  });
});
