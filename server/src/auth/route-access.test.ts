import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declareAccess, probePaths } from '../core/routes.js';
import { startAuthServer, type AuthServer } from './test-support/auth-server.js';

describe('route access declared by the routes', () => {
  let server: AuthServer;
  let usersDir: string;
  const credentials = `Basic ${Buffer.from('ops:s3cret').toString('base64')}`;
  const answer = async () => ({ ok: true });

  beforeAll(async () => {
    usersDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-users-'));
    fs.writeFileSync(path.join(usersDir, 'users'), `ops:${bcrypt.hashSync('s3cret', 4)}\n`);
    server = await startAuthServer({ AUTH_USERS_FILE: path.join(usersDir, 'users') }, async (app) => {
      // A route under a prefix the path rule has never heard of, declaring itself protected.
      app.get('/api/v2/reports', { config: { access: 'protected' } }, answer);
      // Routes that declare nothing, where the path rule would call them public.
      app.get('/undeclared', answer);
      app.get('/api/v2/openly', answer);
      // A plugin mounted under a prefix, declaring its routes public once.
      await app.register(
        async (plugin) => {
          declareAccess(plugin, { prefix: '/api/v2/open', access: 'public' });
          plugin.get('/status', answer);
          plugin.get('/secret', { config: { access: 'protected' } }, answer);
        },
        { prefix: '/api/v2/open' },
      );
    });
  });

  afterAll(async () => {
    await server?.close();
    fs.rmSync(usersDir, { recursive: true, force: true });
  });

  const get = (url: string, authorization?: string) =>
    server.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });

  it('protects a route mounted under a new prefix that declares access: protected', async () => {
    expect((await get('/api/v2/reports')).statusCode).toBe(401);
    expect((await get('/api/v2/reports', credentials)).statusCode).toBe(200);
  });

  it('protects a route that declares no access (fail closed)', async () => {
    expect((await get('/undeclared')).statusCode).toBe(401);
    expect((await get('/undeclared', credentials)).statusCode).toBe(200);
  });

  it("gives a plugin's declaration to its routes under its prefix only, and lets a route declare its own", async () => {
    expect((await get('/api/v2/open/status')).statusCode).toBe(200);
    expect((await get('/api/v2/open/secret')).statusCode).toBe(401);
    expect((await get('/api/v2/openly')).statusCode).toBe(401);
  });

  it('answers the probes without credentials on HEAD too', async () => {
    for (const url of Object.values(probePaths)) {
      expect((await server.app.inject({ method: 'HEAD', url })).statusCode, url).toBe(200);
      expect((await server.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
  });

  it('keeps the path rule for a request no route matched: 401 under a protected area, 404 elsewhere', async () => {
    expect((await get('/API/ADAPTIVE/actuator/info')).statusCode).toBe(401);
    expect((await get('/nothing/here')).statusCode).toBe(404);
  });
});

describe('the workbench with authentication on', () => {
  let server: AuthServer;
  let usersDir: string;

  beforeAll(async () => {
    usersDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-users-'));
    fs.writeFileSync(path.join(usersDir, 'users'), `ops:${bcrypt.hashSync('s3cret', 4)}\n`);
    server = await startAuthServer({ AUTH_USERS_FILE: path.join(usersDir, 'users'), WORKBENCH: 'true' });
  });

  afterAll(async () => {
    await server?.close();
    fs.rmSync(usersDir, { recursive: true, force: true });
  });

  it('leaves its routes to its own token (public for authentication), and only its routes', async () => {
    const api = await server.app.inject({ method: 'GET', url: '/api/workbench/files' });
    expect(api.statusCode).toBe(401);
    expect(api.headers['www-authenticate']).toBeUndefined();
    expect(api.json<{ detail: string }>().detail).toContain('workbench token');
    expect((await server.app.inject({ method: 'GET', url: '/workbench/' })).statusCode).not.toBe(401);
    const gateway = await server.app.inject({ method: 'GET', url: '/api/adaptive/actuator/info' });
    expect(gateway.statusCode).toBe(401);
    expect(gateway.headers['www-authenticate']).toBeDefined();
  });
});
