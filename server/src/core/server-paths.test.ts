import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { serverPathScrubber } from './server-paths.js';
import { serverForTests } from '../test-support/workspace.js';

describe('serverPathScrubber', () => {
  it('names the folders instead of showing them, the longest first, and never matches the root', () => {
    const scrub = serverPathScrubber({ '<workspace>': `${os.homedir()}/project/`, '<data>': '/' });
    expect(scrub(`cannot read ${os.homedir()}/project/specs/a.yaml or ${os.homedir()}/.duckdb`)).toBe(
      'cannot read <workspace>/specs/a.yaml or ~/.duckdb',
    );
    expect(scrub(`spill to ${os.tmpdir()}/aw-query-x/spill`)).toBe('spill to <temp>/aw-query-x/spill');
    expect(scrub('a/b /c')).toBe('a/b /c');
  });
});

describe('query answers name no server folder', () => {
  const server = serverForTests();
  const sql = (query: string) => server.app.inject({ method: 'POST', url: '/api/v1/query/sql', payload: { query } });

  it.each([
    ['SELECT name, value FROM duckdb_settings()', 'duckdb_settings'],
    ["SELECT current_setting('temp_directory')", 'current_setting'],
    ['SELECT * FROM pg_settings', 'pg_settings'],
    [
      'SELECT * FROM (SELECT 1) t, LATERAL (SELECT value FROM duckdb_settings() WHERE name = t.name) s',
      'duckdb_settings',
    ],
    ['WITH s AS (SELECT * FROM duckdb_temporary_files()) SELECT * FROM s', 'duckdb_temporary_files'],
    ['SELECT * FROM duckdb_extensions()', 'duckdb_extensions'],
  ])('refuses %s', async (query, name) => {
    const response = await sql(query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      detail: `${name} shows the server's own settings and files and is not available in queries`,
      code: 'QUERY_INVALID',
    });
  });

  it('takes the temp and home folders out of error messages', async () => {
    for (const folder of [os.tmpdir(), os.homedir()]) {
      const response = await sql(`SELECT * FROM read_csv('${folder}/x.csv')`);
      expect(response.statusCode).toBe(400);
      expect(response.body).not.toContain(`${folder}/`);
      expect(response.json().detail).toMatch(/(<temp>|~)\/x\.csv/);
    }
  });
});
