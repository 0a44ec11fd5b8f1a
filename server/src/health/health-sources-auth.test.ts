import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../test-support/workspace.js';

const exampleQuery = path.resolve(import.meta.dirname, '../../../query');

describe('health of the query sources', () => {
  let workspace: string;
  beforeAll(() => {
    workspace = makeWorkspace();
    fs.cpSync(exampleQuery, path.join(workspace, 'query'), { recursive: true });
  });
  afterAll(() => removeWorkspace(workspace));

  it('has one sub-component per source under database, broker and objectstore', async () => {
    const app = await startServer(workspace);
    try {
      const body = (await app.inject({ url: '/api/health' })).json();
      expect(Object.keys(body.components)).toEqual(['gateway', 'database', 'objectstore', 'broker']);
      expect(body.components.database.components.shop).toMatchObject({ status: 'UP', details: { type: 'relational' } });
      expect(body.components.objectstore.components.lake).toMatchObject({
        status: 'UP',
        details: { type: 'object-storage' },
      });
      expect(body.components.broker.components.events).toMatchObject({ status: 'UP', details: { type: 'streaming' } });
    } finally {
      await app.close();
    }
  });

  it('turns a source DOWN when its data disappears', async () => {
    const app = await startServer(workspace);
    try {
      fs.renameSync(path.join(workspace, 'query/lake'), path.join(workspace, 'query/lake-moved'));
      const response = await app.inject({ url: '/api/health/objectstore' });
      expect(response.statusCode).toBe(503);
      expect(response.json().components.lake.status).toBe('DOWN');
    } finally {
      fs.renameSync(path.join(workspace, 'query/lake-moved'), path.join(workspace, 'query/lake'));
      await app.close();
    }
  });
});

describe('health with authentication on', () => {
  let workspace: string;
  let idp: http.Server;
  let issuer: string;
  let jwksStatus = 200;
  beforeAll(async () => {
    idp = http.createServer((request, response) => {
      if (request.url === '/realms/platform/.well-known/openid-configuration') {
        return response.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/certs` }));
      }
      response.statusCode = jwksStatus;
      response.end(JSON.stringify({ keys: [{ kty: 'RSA', kid: 'k1', n: 'x', e: 'AQAB' }] }));
    });
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(idp.address() as net.AddressInfo).port}/realms/platform`;
    workspace = makeWorkspace({ users: `ops:${bcrypt.hashSync('s3cret', 4)}\n` });
  });
  afterAll(() => {
    idp.close();
    removeWorkspace(workspace);
  });

  it('shows only the status without credentials, and the tree with them', async () => {
    const app = await startServer(workspace, { AUTH_ENABLED: 'true', AUTH_USERS_FILE: path.join(workspace, 'users') });
    try {
      const anonymous = await app.inject({ url: '/api/health' });
      expect(anonymous.statusCode).toBe(200);
      expect(anonymous.json()).toEqual({ status: 'UP', groups: ['api', 'liveness', 'readiness'] });
      const authorization = `Basic ${Buffer.from('ops:s3cret').toString('base64')}`;
      const full = (await app.inject({ url: '/api/health', headers: { authorization } })).json();
      expect(full.components.gateway.components.auth).toMatchObject({
        status: 'UP',
        details: { enabled: true, basic: 'users-file' },
      });
      expect(full.components.gateway.components.hello.status).toBe('UP');
    } finally {
      await app.close();
    }
  });

  it('checks the identity provider: discovery and JWKS reachable', async () => {
    const app = await startServer(workspace, {
      AUTH_ENABLED: 'true',
      IDP_ISSUER: issuer,
      IDP_CLIENT_ID: 'gateway',
      IDP_CLIENT_SECRET: 'x',
      AUTH_USERS_FILE: path.join(workspace, 'users'),
    });
    const authorization = `Basic ${Buffer.from('ops:s3cret').toString('base64')}`;
    try {
      const up = (await app.inject({ url: '/api/health/gateway/auth', headers: { authorization } })).json();
      expect(up).toMatchObject({ status: 'UP', details: { issuer, keys: 1 } });
      jwksStatus = 500;
      const down = await app.inject({ url: '/api/health/gateway', headers: { authorization } });
      expect(down.statusCode).toBe(503);
      expect(down.json().components.auth.details.error).toBe("the identity provider's JWKS answered 500");
    } finally {
      jwksStatus = 200;
      await app.close();
    }
  });
});
