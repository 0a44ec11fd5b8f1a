import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigFileError } from '../../core/config-file.js';
import { toHttpError } from '../../core/domain-errors.js';
import type { HttpError } from '../../core/errors.js';
import { SourceCatalog } from '../source-catalog.js';
import { setupFromText } from '../test-support/query-fixtures.js';
import { TrinoReplayServer } from '../test-support/trino-replay.js';
import { SqlParser } from './sql-parser.js';
import { TrinoEngine } from './trino-engine.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-trino-conn-'));
let parser: SqlParser;
const closers: (() => Promise<unknown>)[] = [];

/** A test CA and a certificate for 127.0.0.1 signed by it, made with openssl for this run only. */
function testCertificates(): { ca: string; key: string; cert: string } {
  const file = (name: string) => path.join(dir, name);
  const run = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '1',
    '-subj',
    '/CN=aw-test-ca',
  );
  run('req', ...ec, '-keyout', file('srv.key'), '-out', file('srv.csr'), '-subj', '/CN=127.0.0.1');
  fs.writeFileSync(file('san.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  run(
    'x509',
    '-req',
    '-in',
    file('srv.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('srv.pem'),
    '-days',
    '1',
    '-extfile',
    file('san.cnf'),
  );
  return {
    ca: file('ca.pem'),
    key: fs.readFileSync(file('srv.key'), 'utf8'),
    cert: fs.readFileSync(file('srv.pem'), 'utf8'),
  };
}

async function started(replay: TrinoReplayServer): Promise<TrinoReplayServer> {
  await replay.start();
  closers.push(() => replay.stop());
  return replay;
}

/** An engine over one postgres-catalog source with the given `trino` section. */
function engineWith(trinoSection: string): TrinoEngine {
  const setup = setupFromText(
    dir,
    `engine: trino\ntrino: ${trinoSection}\nsources:\n  - { name: shop, type: relational, connector: postgres, ` +
      `url: "postgres://x@127.0.0.1:1/shop", trino: { catalog: postgresql, schema: public } }\n`,
  );
  const catalog = new SourceCatalog(setup.sources);
  const engine = new TrinoEngine(catalog, parser, setup.trino!, setup.limits);
  closers.push(
    () => engine.close(),
    () => catalog.close(),
  );
  return engine;
}

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    const answer = toHttpError(error);
    if (answer) return answer;
    throw error;
  }
  throw new Error('expected a failure');
}

const run = (engine: TrinoEngine, sql = 'SELECT region FROM shop.orders', signal?: AbortSignal) =>
  engine.run(sql, { maxRows: 100, timeoutMs: 5000, signal });

beforeAll(async () => {
  parser = await SqlParser.create();
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  parser.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('Trino connection: TLS, credentials, session headers, cancel', () => {
  it('trusts the CA of ca_file over HTTPS, and refuses a certificate no trusted CA signed', async () => {
    const { ca, key, cert } = testCertificates();
    const replay = await started(new TrinoReplayServer({ tls: { key, cert } }));
    expect((await run(engineWith(`{ server: "${replay.url}", ca_file: "${ca}" }`))).row_count).toBe(2);
    const untrusted = await failure(run(engineWith(`{ server: "${replay.url}" }`)));
    expect(untrusted.status).toBe(502);
    expect(untrusted.detail).toMatch(/Trino at https:\/\/127\.0\.0\.1:\d+ is unreachable: .*(certificate|issuer)/i);
  });

  it('sends the JWT as a bearer token with the X-Trino session headers', async () => {
    const replay = await started(new TrinoReplayServer({ accepts: (h) => h === 'Bearer jwt-abc' }));
    const engine = engineWith(
      `{ server: "${replay.url}", user: analyst, jwt: jwt-abc, source: reports, client_tags: [etl, nightly], ` +
        `catalog: postgresql, schema: public }`,
    );
    expect((await run(engine)).row_count).toBe(2);
    expect(replay.requests[0].headers).toMatchObject({
      authorization: 'Bearer jwt-abc',
      'x-trino-user': 'analyst',
      'x-trino-source': 'reports',
      'x-trino-client-tags': 'etl,nightly',
      'x-trino-catalog': 'postgresql',
      'x-trino-schema': 'public',
    });
  });

  it("answers 502 naming Trino's 401 challenge when it refuses the credentials", async () => {
    const replay = await started(new TrinoReplayServer({ accepts: (h) => h === 'Bearer right' }));
    const refused = await failure(run(engineWith(`{ server: "${replay.url}", jwt: wrong, retries: 0 }`)));
    expect(refused.status).toBe(502);
    expect(refused.detail).toContain('HTTP 401 (WWW-Authenticate: Bearer realm="trino")');
  });

  it('fetches an OAuth2 client-credentials token once, and again when Trino refuses it', async () => {
    const grants: string[] = [];
    let issued = 0;
    const tokens = http.createServer((request, response) => {
      let body = '';
      request.on('data', (c: Buffer) => (body += c.toString()));
      request.on('end', () => {
        const ok = request.headers.authorization === `Basic ${Buffer.from('aw:s3cret').toString('base64')}`;
        grants.push(body);
        response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        response.end(ok ? JSON.stringify({ access_token: `tok-${++issued}`, expires_in: 3600 }) : '{}');
      });
    });
    await new Promise<void>((resolve) => tokens.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => tokens.close(resolve)));
    let accepted = 'Bearer tok-1';
    const replay = await started(new TrinoReplayServer({ accepts: (h) => h === accepted }));
    const tokenUrl = `http://127.0.0.1:${(tokens.address() as AddressInfo).port}/token`;
    const engine = engineWith(
      `{ server: "${replay.url}", ` +
        `oauth2: { token_url: "${tokenUrl}", client_id: aw, client_secret: s3cret, scope: trino } }`,
    );
    await run(engine);
    await run(engine);
    expect(grants).toEqual(['grant_type=client_credentials&scope=trino']);
    accepted = 'Bearer tok-2'; // the token was revoked before its expiry
    expect((await run(engine)).row_count).toBe(2);
    expect(grants.length).toBe(2);
  });

  it('cancels with DELETE on the nextUri when the caller aborts (client gone, job cancelled)', async () => {
    const replay = await started(new TrinoReplayServer());
    const engine = engineWith(`{ server: "${replay.url}" }`);
    const controller = new AbortController();
    const running = run(engine, 'SELECT slow FROM shop.orders', controller.signal);
    running.catch(() => undefined);
    await vi.waitFor(() => expect(replay.requests.some((r) => r.url.includes('/executing/'))).toBe(true));
    controller.abort(new Error('client gone'));
    await expect(running).rejects.toThrow('client gone');
    await vi.waitFor(() => expect(replay.requests.some((r) => r.method === 'DELETE')).toBe(true));
    const cancel = replay.requests.find((r) => r.method === 'DELETE')!;
    expect(cancel.url).toMatch(/^\/v1\/statement\/executing\/[^/]+\/\d+$/);
  });

  it("cancels a query known only by its id (another replica's job) with DELETE /v1/query/<id>", async () => {
    const replay = await started(new TrinoReplayServer({ accepts: (h) => h === 'Bearer t' }));
    await engineWith(`{ server: "${replay.url}", jwt: t }`).cancelQuery('20240101_000000_00001_abc');
    expect(replay.requests).toMatchObject([
      { method: 'DELETE', url: '/v1/query/20240101_000000_00001_abc', headers: { authorization: 'Bearer t' } },
    ]);
  });

  it('refuses credentials over plain HTTP to another machine, and two kinds of credentials at once', () => {
    const load = (section: string) => () => setupFromText(dir, `engine: trino\ntrino: ${section}\nsources: []\n`);
    expect(load('{ server: "http://trino.example:8080", jwt: x }')).toThrow(/sent only over HTTPS/);
    expect(load('{ server: "https://t:8443", jwt: x, password: y }')).toThrow(ConfigFileError);
    expect(load('{ server: "http://t:8080", ca_file: ca.pem }')).toThrow(/https:\/\/ server URL/);
    expect(
      load(
        '{ server: "https://t:8443", oauth2: { token_url: "http://idp.example/t", client_id: a, client_secret: b } }',
      ),
    ).toThrow(/token_url/);
  });
});
