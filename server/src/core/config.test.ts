import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseSize } from './config.js';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({}, {});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      workspace: path.resolve('.'),
      specsDir: path.resolve('specs'),
      handlersDir: path.resolve('handlers'),
      hotReload: true,
      specMaxHeapMb: 1024,
      specPaths: [],
      authEnabled: false,
      corsOrigins: '*',
      bodyLimit: 1024 * 1024,
      logLevel: 'info',
      workbench: false,
      shutdownDrainMs: 5000,
    });
    expect(config.auth.loginThrottle).toEqual({ burst: 10, perMinute: 10 });
  });

  it('lets flags override variables and resolves directories inside the workspace', () => {
    const config = loadConfig(
      { PORT: '9000', SPECS_DIR: 'api-specs', WORKSPACE: '/elsewhere' },
      { port: '7000', workspace: '/ws' },
    );
    expect(config.port).toBe(7000);
    expect(config.workspace).toBe('/ws');
    expect(config.specsDir).toBe('/ws/api-specs');
    expect(config.handlersDir).toBe('/ws/handlers');
  });

  it('puts the query folder where QUERY_SOURCES is, inside the workspace or not', () => {
    expect(loadConfig({}, { workspace: '/ws' })).toMatchObject({
      querySources: '/ws/query/sources.yaml',
      queryDir: '/ws/query',
    });
    expect(loadConfig({ QUERY_SOURCES: '/etc/aw/sources.yaml' }, { workspace: '/ws' })).toMatchObject({
      querySources: '/etc/aw/sources.yaml',
      queryDir: '/etc/aw',
    });
  });

  it('leaves the mock security checks off unless MOCK_SECURITY says enforce', () => {
    expect(loadConfig({}).mock.security).toBe('off');
    expect(loadConfig({ MOCK_SECURITY: ' Enforce ' }).mock.security).toBe('enforce');
  });

  it('resolves the spec files and folders given to serve (mock mode)', () => {
    expect(loadConfig({}, { specPaths: ['petstore.yaml', '/abs/specs'] }).specPaths).toEqual([
      path.resolve('petstore.yaml'),
      '/abs/specs',
    ]);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ HOT_RELOAD: 'maybe' }, 'HOT_RELOAD'],
    [{ AUTH_ENABLED: 'yes please' }, 'AUTH_ENABLED'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ BODY_LIMIT: 'huge' }, 'BODY_LIMIT'],
    [{ CORS_ORIGINS: 'not an origin' }, 'CORS_ORIGINS'],
    [{ QUERY_JOB_STORE: 'mongodb://db' }, 'QUERY_JOB_STORE'],
    [{ QUERY_JOB_STORE: '/data/jobs' }, 'QUERY_JOB_STORE'],
    [{ QUERY_JOB_STORE: 'redis://x', QUERY_JOB_STORE_PREFIX: 'Bad-Prefix' }, 'QUERY_JOB_STORE_PREFIX'],
    [{ QUERY_JOB_LEASE_MS: '10' }, 'QUERY_JOB_LEASE_MS'],
    [{ SHUTDOWN_DRAIN_MS: '-1' }, 'SHUTDOWN_DRAIN_MS'],
    [{ AUTH_LOGIN_BURST: '0' }, 'AUTH_LOGIN_BURST'],
    [{ AUTH_LOGIN_PER_MINUTE: 'often' }, 'AUTH_LOGIN_PER_MINUTE'],
    [{ SPEC_MAX_HEAP_MB: '32' }, 'SPEC_MAX_HEAP_MB'],
    [{ MOCK_SECURITY: 'on' }, 'MOCK_SECURITY'],
  ])('rejects %o naming the variable', (env, variable) => {
    expect(() => loadConfig(env, {})).toThrow(ConfigError);
    expect(() => loadConfig(env, {})).toThrow(new RegExp(`^${variable}=`));
  });

  it('keeps async jobs in the local folder unless QUERY_JOB_STORE names a shared store', () => {
    expect(loadConfig({}).queryJobs).toEqual({ store: { kind: 'folder' }, prefix: 'adaptive_jobs', leaseMs: 15_000 });
    expect(loadConfig({ QUERY_JOB_STORE: 'rediss://:pw@redis:6380/2' }).queryJobs.store).toEqual({
      kind: 'redis',
      url: 'rediss://:pw@redis:6380/2',
    });
    expect(
      loadConfig({ QUERY_JOB_STORE: 'postgresql://u:pw@db/jobs', QUERY_JOB_STORE_PREFIX: 'team_a' }).queryJobs,
    ).toMatchObject({ store: { kind: 'postgres' }, prefix: 'team_a' });
    // A bad value is named without its password.
    expect(() => loadConfig({ QUERY_JOB_STORE: 'mongodb://user:secret@db' })).toThrow(
      /^QUERY_JOB_STORE="mongodb:\/\/\*\*\*@db" is not valid/,
    );
  });

  it('reads CORS origins as a list', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
  });

  it('takes a fixed workbench token only when it is as strong as a random one, and never echoes it', () => {
    const token = 'k3Yq-9_abcdefghijklmnopqrstuv';
    expect(loadConfig({ WORKBENCH_TOKEN: token }).workbenchToken).toBe(token);
    expect(loadConfig({}).workbenchToken).toBeUndefined();
    for (const weak of ['short', 'has space in it and is long enough', `${'a'.repeat(23)}`]) {
      expect(() => loadConfig({ WORKBENCH_TOKEN: weak })).toThrow(ConfigError);
      expect(() => loadConfig({ WORKBENCH_TOKEN: weak })).not.toThrow(weak);
    }
  });
});

describe('parseSize', () => {
  it.each([
    ['1mb', 1048576],
    ['512kb', 524288],
    ['100', 100],
    ['2 MB', 2097152],
  ])('%s is %d bytes', (raw, bytes) => expect(parseSize('X', raw)).toBe(bytes));
  it('rejects zero and nonsense', () => {
    expect(() => parseSize('X', '0')).toThrow(ConfigError);
    expect(() => parseSize('X', '1tb')).toThrow(ConfigError);
  });
});
