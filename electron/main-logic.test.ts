import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  initialWorkspace,
  isAllowedNavigation,
  isExternalLink,
  isInsideWorkspace,
  readState,
  rememberWorkspace,
  windowOptions,
  writeState,
} from './main-logic.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-electron-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('window', () => {
  it('isolates and sandboxes the renderer, without Node', () => {
    const options = windowOptions('/app/preload.cjs', { recentWorkspaces: [] });
    expect(options.webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
    });
  });
  it('restores remembered bounds, and ignores absurd ones', () => {
    expect(
      windowOptions('p', { recentWorkspaces: [], bounds: { x: 10, y: 20, width: 1000, height: 700 } }),
    ).toMatchObject({ x: 10, y: 20, width: 1000, height: 700 });
    expect(windowOptions('p', { recentWorkspaces: [], bounds: { width: 5, height: 5 } })).toMatchObject({
      width: 1400,
      height: 900,
    });
  });
  it('allows only the embedded server in the content security policy', () => {
    const policy = contentSecurityPolicy('http://127.0.0.1:4567');
    expect(policy).toContain("default-src 'self' http://127.0.0.1:4567");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toMatch(/https:|\*/);
  });
});

describe('navigation', () => {
  const origin = 'http://127.0.0.1:4567';
  it('stays inside the workbench of the embedded server', () => {
    expect(isAllowedNavigation('http://127.0.0.1:4567/workbench/?token=x', origin)).toBe(true);
    expect(isAllowedNavigation('http://127.0.0.1:4567/api/adaptive/', origin)).toBe(false);
    expect(isAllowedNavigation('http://127.0.0.1:9999/workbench/', origin)).toBe(false);
    expect(isAllowedNavigation('https://evil.example/workbench/', origin)).toBe(false);
    expect(isAllowedNavigation('file:///etc/passwd', origin)).toBe(false);
    expect(isAllowedNavigation('not a url', origin)).toBe(false);
  });
  it('opens only web links externally', () => {
    expect(isExternalLink('https://example.com')).toBe(true);
    expect(isExternalLink('file:///etc/passwd')).toBe(false);
    expect(isExternalLink('javascript:alert(1)')).toBe(false);
  });
});

describe('bridge', () => {
  it('reveals only files inside the workspace', () => {
    expect(isInsideWorkspace('/ws', 'specs/a.yaml')).toBe(true);
    expect(isInsideWorkspace('/ws', '../etc/passwd')).toBe(false);
    expect(isInsideWorkspace('/ws', '/etc/passwd')).toBe(false);
    expect(isInsideWorkspace('/ws', '')).toBe(false);
  });
});

describe('state', () => {
  it('keeps recent workspaces most recent first, without duplicates, at most ten', () => {
    let state = { recentWorkspaces: [] as string[] };
    for (let i = 0; i < 12; i++) state = rememberWorkspace(state, `/w${i}`);
    state = rememberWorkspace(state, '/w5');
    expect(state.recentWorkspaces[0]).toBe('/w5');
    expect(state.recentWorkspaces).toHaveLength(10);
    expect(new Set(state.recentWorkspaces).size).toBe(10);
  });
  it('reopens the last workspace that still exists, else the example', () => {
    expect(initialWorkspace({ recentWorkspaces: ['/gone', dir] }, '/example')).toBe(dir);
    expect(initialWorkspace({ recentWorkspaces: ['/gone'] }, '/example')).toBe('/example');
  });
  it('round-trips through its file, and survives a damaged one', () => {
    const file = path.join(dir, 'state.json');
    writeState(file, { recentWorkspaces: ['/a'], bounds: { width: 900, height: 600 }, maximized: true });
    expect(readState(file)).toEqual({ recentWorkspaces: ['/a'], bounds: { width: 900, height: 600 }, maximized: true });
    fs.writeFileSync(file, '{not json');
    expect(readState(file)).toEqual({ recentWorkspaces: [] });
    expect(readState(path.join(dir, 'absent.json'))).toEqual({ recentWorkspaces: [] });
  });
});
