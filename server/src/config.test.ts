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
    });
  });

  it('lets flags override variables and resolves directories inside the workspace', () => {
    const config = loadConfig({ PORT: '9000', SPECS_DIR: 'api-specs', WORKSPACE: '/elsewhere' }, { port: '7000', workspace: '/ws' });
    expect(config.port).toBe(7000);
    expect(config.workspace).toBe('/ws');
    expect(config.specsDir).toBe('/ws/api-specs');
    expect(config.handlersDir).toBe('/ws/handlers');
  });

  it('resolves the spec files and folders given to serve (mock mode)', () => {
    expect(loadConfig({}, { specPaths: ['petstore.yaml', '/abs/specs'] }).specPaths).toEqual([path.resolve('petstore.yaml'), '/abs/specs']);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ HOT_RELOAD: 'maybe' }, 'HOT_RELOAD'],
    [{ AUTH_ENABLED: 'yes please' }, 'AUTH_ENABLED'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ BODY_LIMIT: 'huge' }, 'BODY_LIMIT'],
    [{ CORS_ORIGINS: 'not an origin' }, 'CORS_ORIGINS'],
    [{ SPEC_MAX_HEAP_MB: '32' }, 'SPEC_MAX_HEAP_MB'],
  ])('rejects %o naming the variable', (env, variable) => {
    expect(() => loadConfig(env, {})).toThrow(ConfigError);
    expect(() => loadConfig(env, {})).toThrow(new RegExp(`^${variable}=`));
  });

  it('reads CORS origins as a list', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).corsOrigins).toEqual(['https://a.example', 'http://localhost:5173']);
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
