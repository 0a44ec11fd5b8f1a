/**
 * The only bridge between the sandboxed renderer and the main process: the server URL, the
 * per-launch token and a few native actions, each on an allow-listed channel.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { MenuCommand, WorkbenchBridge } from '../server/src/contract/index.js';
import { menuEvents, type BridgeChannel } from './channels.js';

const query = new URLSearchParams(window.location.search);
const invoke = (channel: BridgeChannel, ...args: unknown[]) => ipcRenderer.invoke(channel, ...args);

const bridge: WorkbenchBridge = {
  serverUrl: window.location.origin,
  token: query.get('token') ?? '',
  openWorkspace: () => invoke('workspace:open'),
  recentWorkspaces: () => invoke('workspace:recent'),
  openRecentWorkspace: (folder: string) => invoke('workspace:open-recent', folder),
  revealFile: (file: string) => invoke('file:reveal', file),
  onMenuCommand: (listener) => {
    const subscriptions = (Object.keys(menuEvents) as MenuCommand[]).map((command) => {
      const onEvent = () => listener(command);
      ipcRenderer.on(menuEvents[command], onEvent);
      return () => ipcRenderer.removeListener(menuEvents[command], onEvent);
    });
    return () => subscriptions.forEach((unsubscribe) => unsubscribe());
  },
};

contextBridge.exposeInMainWorld('workbench', bridge);
