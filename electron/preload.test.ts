import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { MenuCommand, WorkbenchBridge } from '../server/src/contract/index.js';

// The preload runs in Electron's sandbox: here its two Electron modules are stand-ins that record.
const electron = vi.hoisted(() => {
  const listeners = new Map<string, Set<() => void>>();
  return {
    listeners,
    exposed: {} as Record<string, unknown>,
    invoke: vi.fn(async (..._args: unknown[]) => undefined),
    send: (channel: string) => listeners.get(channel)?.forEach((listener) => listener()),
  };
});

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (name: string, api: unknown) => (electron.exposed[name] = api) },
  ipcRenderer: {
    invoke: electron.invoke,
    on: (channel: string, listener: () => void) => {
      if (!electron.listeners.has(channel)) electron.listeners.set(channel, new Set());
      electron.listeners.get(channel)!.add(listener);
    },
    removeListener: (channel: string, listener: () => void) => electron.listeners.get(channel)?.delete(listener),
  },
}));

let bridge: WorkbenchBridge;
beforeAll(async () => {
  vi.stubGlobal('window', { location: { origin: 'http://127.0.0.1:4321', search: '?token=abc' } });
  await import('./preload.js');
  bridge = electron.exposed.workbench as WorkbenchBridge;
});

describe('preload bridge', () => {
  it('exposes the server URL and the token of the page', () => {
    expect(bridge.serverUrl).toBe('http://127.0.0.1:4321');
    expect(bridge.token).toBe('abc');
  });
  it('asks the main process on the channel of each action', async () => {
    await bridge.revealFile('specs/a.yaml');
    expect(electron.invoke).toHaveBeenCalledWith('file:reveal', 'specs/a.yaml');
  });
  it('passes menu commands on until the listener is removed', () => {
    const seen: MenuCommand[] = [];
    const stop = bridge.onMenuCommand((command) => seen.push(command));
    electron.send('menu:new-spec');
    electron.send('menu:new-handler');
    stop();
    electron.send('menu:new-spec');
    expect(seen).toEqual(['new-spec', 'new-handler']);
    expect([...electron.listeners.values()].every((set) => set.size === 0)).toBe(true);
  });
});
