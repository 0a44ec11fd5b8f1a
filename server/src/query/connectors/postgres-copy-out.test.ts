import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceUrls } from '../test-support/query-fixtures.js';
import { CopyOutStream } from './postgres-copy-out.js';

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: `${serviceUrls.postgres}/postgres` });
  await client.connect();
  // Sends a notice while the COPY's rows stream, as a trigger or a function might.
  await client.query(
    `CREATE FUNCTION pg_temp.noisy(n int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN IF n % 1000 = 0 THEN RAISE ` +
      `NOTICE 'row %', n; END IF; RETURN n; END $$`,
  );
});
afterAll(async () => {
  await client.end();
});

/** Everything a COPY ... TO STDOUT sends, as text. */
async function copyText(sql: string): Promise<string> {
  const parts: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      parts.push(chunk);
      done();
    },
  });
  await pipeline(client.query(new CopyOutStream(sql)), sink);
  return Buffer.concat(parts).toString('utf8');
}

describe('COPY TO STDOUT stream', () => {
  it('relays every row exactly, short and long', async () => {
    const text = await copyText(`COPY (SELECT g, repeat('x', g % 100) FROM generate_series(1, 20000) g) TO STDOUT`);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(20000);
    expect(lines[0]).toBe('1\tx');
    expect(lines[19999]).toBe(`20000\t`);
    expect(lines[98]).toBe(`99\t${'x'.repeat(99)}`);
  });

  it('carries a row larger than many socket chunks across them', async () => {
    const text = await copyText(`COPY (SELECT 'a' || repeat('é', 2000000) || 'z' UNION ALL SELECT 'next') TO STDOUT`);
    expect(text).toBe(`a${'é'.repeat(2_000_000)}z\nnext\n`);
  });

  it('skips notices sent between rows', async () => {
    const text = await copyText(`COPY (SELECT pg_temp.noisy(g) FROM generate_series(1, 5000) g) TO STDOUT`);
    expect(text.split('\n').slice(0, -1).map(Number)).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
  });

  it('ends at once for no rows', async () => {
    expect(await copyText('COPY (SELECT 1 WHERE false) TO STDOUT')).toBe('');
  });

  it('stops when its reader gives up, and its connection can still be closed', async () => {
    const own = new pg.Client({ connectionString: `${serviceUrls.postgres}/postgres` });
    await own.connect();
    const stream = own.query(new CopyOutStream('COPY (SELECT generate_series(1, 50000000)) TO STDOUT'));
    let received = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > 100_000) stream.destroy(new Error('the query was stopped'));
        done();
      },
    });
    await expect(pipeline(stream, sink)).rejects.toThrow('the query was stopped');
    // As the connector does with a cut-off COPY: the connection is dropped, not reused.
    own.connection.stream.destroy();
    await own.end().catch(() => undefined);
  });

  it('fails with the server error raised mid-COPY and leaves the connection usable', async () => {
    await expect(copyText('COPY (SELECT 1 / (g - 3000) FROM generate_series(1, 5000) g) TO STDOUT')).rejects.toThrow(
      /division by zero/,
    );
    expect((await client.query('SELECT 41 + 1 AS answer')).rows).toEqual([{ answer: 42 }]);
  });
});
