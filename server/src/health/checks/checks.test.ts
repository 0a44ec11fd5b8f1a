import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCheck } from './http-check.js';
import { postgresCheck } from './postgres-check.js';
import { redisCheck } from './redis-check.js';
import { s3Check } from './s3-check.js';
import { tcpCheck } from './tcp-check.js';

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const signal = () => AbortSignal.timeout(5000);

/** A port nothing listens on: bind, note the port, close. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === '/count') return response.end(JSON.stringify({ data: { count: 12 } }));
    if (request.url === '/text') return response.end('not json');
    response.statusCode = 500;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(() => server.close());

describe('http check', () => {
  it('is UP on the expected status and reports a JSON field', async () => {
    expect(await httpCheck({ url: `${base}/count`, field: 'data.count' }, signal())).toEqual({
      status: 'UP',
      details: { status_code: 200, 'data.count': 12 },
    });
    expect((await httpCheck({ url: `${base}/count`, field: 'data.count', equals: 12 }, signal())).status).toBe('UP');
  });
  it('is DOWN on another status, a missing or different field, or a body that is not JSON', async () => {
    expect(await httpCheck({ url: `${base}/boom` }, signal())).toMatchObject({
      status: 'DOWN',
      details: { error: 'status 500, expected 2xx' },
    });
    expect(await httpCheck({ url: `${base}/count`, field: 'data.total' }, signal())).toMatchObject({
      status: 'DOWN',
      details: { error: 'field data.total is missing' },
    });
    expect(await httpCheck({ url: `${base}/count`, field: 'data.count', equals: 3 }, signal())).toMatchObject({
      status: 'DOWN',
    });
    expect(await httpCheck({ url: `${base}/text`, field: 'x' }, signal())).toMatchObject({
      status: 'DOWN',
      details: { error: 'body is not JSON' },
    });
    expect((await httpCheck({ url: `${base}/boom`, status: 500 }, signal())).status).toBe('UP');
  });
  it('throws when nothing listens', async () => {
    await expect(httpCheck({ url: `http://127.0.0.1:${await closedPort()}/` }, signal())).rejects.toThrow();
  });
});

describe('tcp check', () => {
  it('connects to an open port and fails on a closed one', async () => {
    await expect(tcpCheck({ host: '127.0.0.1', port: Number(new URL(base).port) }, signal())).resolves.toBeUndefined();
    await expect(tcpCheck({ host: '127.0.0.1', port: await closedPort() }, signal())).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('postgres check', () => {
  it('reports the server version, and fails on a closed port', async () => {
    expect((await postgresCheck({ url: postgresUrl }, signal())).version).toMatch(/^\d+/);
    await expect(
      postgresCheck({ url: `postgres://postgres@127.0.0.1:${await closedPort()}/postgres` }, signal()),
    ).rejects.toThrow();
  });
});

describe('redis check', () => {
  it('pings, and fails on a closed port', async () => {
    expect(await redisCheck({ url: redisUrl }, signal())).toEqual({ ping: 'PONG' });
    await expect(redisCheck({ url: `redis://127.0.0.1:${await closedPort()}` }, signal())).rejects.toThrow();
  });
});

describe('s3 check', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-s3-'));
  let s3: S3rver;
  let endpoint: string;
  beforeAll(async () => {
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'present', configs: [] }],
    });
    const { port } = await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await s3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  it('finds an existing bucket and fails on a missing one', async () => {
    const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
    expect(await s3Check({ bucket: 'present', endpoint, ...credentials }, signal())).toEqual({ bucket: 'present' });
    await expect(s3Check({ bucket: 'absent', endpoint, ...credentials }, signal())).rejects.toThrow(
      /bucket absent: .*404/,
    );
  });
});
