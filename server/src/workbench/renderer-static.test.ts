import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveRenderer } from './renderer-static.js';

const script = 'console.log("the workbench");\n'.repeat(100);

describe('the renderer build, served compressed', () => {
  let outside: string;
  let app: FastifyInstance;

  beforeEach(async () => {
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-renderer-static-'));
    const assets = path.join(outside, 'renderer', 'assets');
    fs.mkdirSync(assets, { recursive: true });
    fs.writeFileSync(path.join(outside, 'renderer', 'index.html'), '<!doctype html><title>wb</title>');
    fs.writeFileSync(path.join(assets, 'app-1.js'), script);
    fs.writeFileSync(path.join(assets, 'app-1.js.br'), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(assets, 'app-1.js.gz'), zlib.gzipSync(script));
    fs.writeFileSync(path.join(assets, 'plain-1.js'), script);
    app = Fastify();
    serveRenderer(app, path.join(outside, 'renderer'));
    await app.ready();
  });
  afterEach(async () => {
    await app.close();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it("sends the build's Brotli copy, else its gzip copy, to a browser that accepts it", async () => {
    const br = await get('/workbench/assets/app-1.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('application/javascript');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gzip = await get('/workbench/assets/app-1.js', 'gzip, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(script);
  });

  it('sends the file itself without an accepted coding, or when the build made no copy', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const response = await get('/workbench/assets/app-1.js', acceptEncoding);
      expect(response.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(response.body).toBe(script);
    }
    const plain = await get('/workbench/assets/plain-1.js', 'br, gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('never sends a compressed copy that is a link out of the build', async () => {
    fs.writeFileSync(path.join(outside, 'secret.br'), zlib.brotliCompressSync('TOP-SECRET'));
    fs.symlinkSync(path.join(outside, 'secret.br'), path.join(outside, 'renderer', 'assets', 'plain-1.js.br'));
    const response = await get('/workbench/assets/plain-1.js', 'br');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(script);
  });
});
