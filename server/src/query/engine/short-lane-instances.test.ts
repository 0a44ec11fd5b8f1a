import fs from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { ShortLaneInstances } from './short-lane-instances.js';

// Not the machine's zone, so the test sees whether a later connection got the instance's global setting.
const sandbox =
  "SET GLOBAL TimeZone = 'America/New_York'; SET threads = 1; SET enable_external_access = false; " +
  'SET lock_configuration = true';

async function value(connection: DuckDBConnection, sql: string): Promise<unknown> {
  return (await connection.runAndReadAll(sql)).getRows()[0][0];
}

describe('the short lane instances', () => {
  it('keeps an instance whose query ended normally; the next one gets a sandboxed connection of its own', async () => {
    const lane = new ShortLaneInstances({ threads: '1' }, sandbox);
    const first = await lane.take();
    await lane.release(first, true);

    const second = await lane.take();
    expect(second.instance).toBe(first.instance);
    expect(second.connection).not.toBe(first.connection);
    expect(await value(second.connection!, "SELECT current_setting('TimeZone')")).toBe('America/New_York');
    await expect(second.connection!.run('SET enable_external_access = true')).rejects.toThrow(/locked/i);
    // What a SELECT can set, the random seed, is its connection's: seeded and left seeded by this query, the next
    // query's first random() is not the seeded one.
    await second.connection!.run('SELECT setseed(0.5)');
    const seeded = await value(second.connection!, 'SELECT random()');
    await second.connection!.run('SELECT setseed(0.5)');
    await lane.release(second, true);
    const third = await lane.take();
    expect(await value(third.connection!, 'SELECT random()')).not.toBe(seeded);
    await lane.release(third, true);
    await lane.close();
    expect(fs.existsSync(first.workDir)).toBe(false);
  });

  it('closes and replaces an instance whose query failed or was stopped', async () => {
    const lane = new ShortLaneInstances({ threads: '1' }, sandbox);
    const failed = await lane.take();
    await lane.release(failed, false);
    expect(fs.existsSync(failed.workDir)).toBe(false);
    await expect(failed.instance.connect()).rejects.toThrow();

    const next = await lane.take();
    expect(next.instance).not.toBe(failed.instance);
    expect(await value(next.connection!, "SELECT current_setting('TimeZone')")).toBe('America/New_York');
    await lane.release(next, true);
    await lane.close();
    expect(fs.existsSync(next.workDir)).toBe(false);
  });
});
