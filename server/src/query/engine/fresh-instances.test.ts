import fs from 'node:fs';
import type { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { FreshInstances } from './fresh-instances.js';

async function tableCount(instance: DuckDBInstance): Promise<number> {
  const connection = await instance.connect();
  try {
    return Number((await connection.runAndReadAll('SELECT count(*) FROM duckdb_tables()')).getRows()[0][0]);
  } finally {
    connection.closeSync();
  }
}

describe('fresh DuckDB instances', () => {
  it('gives each query an instance no earlier query touched, and removes the used one with its folder', async () => {
    const instances = new FreshInstances({ threads: '1' });
    const first = await instances.take();
    const connection = await first.instance.connect();
    await connection.run('CREATE TABLE leftover AS SELECT 1 AS x');
    connection.closeSync();
    expect(fs.existsSync(first.workDir)).toBe(true);
    const released = instances.release(first);
    // Closed on a later turn of the event loop, not on the path of the query's answer.
    expect(fs.existsSync(first.workDir)).toBe(true);
    await released;
    expect(fs.existsSync(first.workDir)).toBe(false);
    await expect(first.instance.connect()).rejects.toThrow();

    const second = await instances.take();
    expect(second.instance).not.toBe(first.instance);
    expect(second.workDir).not.toBe(first.workDir);
    expect(await tableCount(second.instance)).toBe(0);
    void instances.release(second);
    await instances.close();
    // Closing waits for the instances released just before.
    expect(fs.existsSync(second.workDir)).toBe(false);
  });

  it('prepares the next instance when a query ends, and closing removes it', async () => {
    const instances = new FreshInstances({ threads: '1' });
    void instances.release(await instances.take());
    const prepared = await (instances as unknown as { spare: Promise<{ workDir: string }> }).spare;
    expect(fs.existsSync(prepared.workDir)).toBe(true);
    await instances.close();
    expect(fs.existsSync(prepared.workDir)).toBe(false);
    // Queries already under way still get an instance after close; none is prepared afterwards.
    const late = await instances.take();
    await instances.release(late);
    expect((instances as unknown as { spare?: unknown }).spare).toBeUndefined();
  });

  it('fails the take when DuckDB refuses a setting', async () => {
    const instances = new FreshInstances({ memory_limit: 'not a size' });
    await expect(instances.take()).rejects.toThrow(/config/i);
    await instances.close();
  });

  it('hands out each instance with a connection `prepare` has run on, and closes it with the instance', async () => {
    const instances = new FreshInstances({ threads: '1' }, "SET TimeZone = 'UTC'; SET lock_configuration = true");
    const used = await instances.take();
    const connection = used.connection!;
    const settings = await connection.runAndReadAll(
      "SELECT current_setting('TimeZone'), current_setting('lock_configuration')",
    );
    expect(settings.getRows()[0]).toEqual(['UTC', true]);
    await instances.release(used);
    await expect(connection.run('SELECT 1')).rejects.toThrow();
    await instances.close();
  });
});
