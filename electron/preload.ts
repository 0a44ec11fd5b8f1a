/**
 * The only bridge between the sandboxed renderer and the main process: the server URL, the
 * per-launch token and a few native actions, each on an allow-listed channel.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { WorkbenchBridge } from '../server/src/contract/index.js';

const query = new URLSearchParams(window.location.search);

const bridge: WorkbenchBridge = {
  serverUrl: window.location.origin,
  token: query.get('token') ?? '',
  openWorkspace: () => ipcRenderer.invoke('workspace:open'),
  recentWorkspaces: () => ipcRenderer.invoke('workspace:recent'),
  openRecentWorkspace: (folder: string) => ipcRenderer.invoke('workspace:open-recent', folder),
  revealFile: (file: string) => ipcRenderer.invoke('file:reveal', file),
  onMenuCommand: (listener: (command: 'new-spec' | 'new-handler') => void) => {
    ipcRenderer.on('menu:new-spec', () => listener('new-spec'));
    ipcRenderer.on('menu:new-handler', () => listener('new-handler'));
  },
};

contextBridge.exposeInMainWorld('workbench', bridge);
