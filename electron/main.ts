/**
 * The desktop workbench: the whole server in-process on 127.0.0.1 and a free port, with the
 * workbench API on behind a per-launch token, and one window on the renderer it serves.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell, type MenuItemConstructorOptions } from 'electron';
import type { FastifyInstance } from 'fastify';
import { buildServer, newWorkbenchToken, workbenchUrl } from 'adaptive-workbench/app';
import { loadConfig } from 'adaptive-workbench/config';
import type { MenuCommand } from '../server/src/contract/index.js';
import { isBridgeChannel, menuEvents } from './channels.js';
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
  type AppState,
} from './main-logic.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const exampleWorkspace = app.isPackaged
  ? path.join(process.resourcesPath, 'example-workspace')
  : path.resolve(here, '..', '..');
// A separate profile (tests, a second configuration) keeps its own state and single-instance lock.
if (process.env.ADAPTIVE_WORKBENCH_USER_DATA) app.setPath('userData', process.env.ADAPTIVE_WORKBENCH_USER_DATA);
const stateFile = path.join(app.getPath('userData'), 'state.json');

let state: AppState = readState(stateFile);
let server: FastifyInstance | undefined;
let serverUrl = '';
/** The page the window shows: the embedded server's workbench, with the token. */
let workbenchPageUrl = '';
let workspace = '';
let window: BrowserWindow | undefined;
const token = newWorkbenchToken();

async function startServer(folder: string): Promise<void> {
  const previous = server;
  server = undefined;
  await previous?.close();
  const config = loadConfig(
    { ...process.env, HOT_RELOAD: 'true' },
    { workspace: folder, host: '127.0.0.1', port: '0', workbench: true },
  );
  // The renderer built beside this bundle (dist/renderer), wherever a packaged app puts the server package.
  server = await buildServer(config, { workbenchToken: token, rendererDir: path.join(here, '..', 'renderer') });
  serverUrl = await server.listen({ host: '127.0.0.1', port: 0 });
  workbenchPageUrl = workbenchUrl(server.server.address(), '127.0.0.1', token);
  workspace = folder;
  state = rememberWorkspace(state, folder);
  writeState(stateFile, state);
}

async function openWorkspace(folder: string): Promise<void> {
  await startServer(folder);
  await window?.loadURL(workbenchPageUrl);
  window?.setTitle(`Adaptive Workbench — ${path.basename(folder)}`);
  buildMenu();
}

async function chooseWorkspace(): Promise<string | undefined> {
  const result = await dialog.showOpenDialog({
    title: 'Open Workspace',
    properties: ['openDirectory', 'createDirectory'],
  });
  return result.canceled ? undefined : result.filePaths[0];
}

function buildMenu(): void {
  const send = (command: MenuCommand) => () => window?.webContents.send(menuEvents[command]);
  const template: MenuItemConstructorOptions[] = [
    {
      label: 'File',
      submenu: [
        {
          label: 'Open Workspace…',
          accelerator: 'CmdOrCtrl+O',
          click: async () => {
            const folder = await chooseWorkspace();
            if (folder) await openWorkspace(folder);
          },
        },
        {
          label: 'Open Recent',
          submenu: state.recentWorkspaces.map((folder) => ({ label: folder, click: () => void openWorkspace(folder) })),
        },
        { type: 'separator' },
        { label: 'New Spec', accelerator: 'CmdOrCtrl+Alt+N', click: send('new-spec') },
        { label: 'New Handler', accelerator: 'CmdOrCtrl+Alt+H', click: send('new-handler') },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: 'Help',
      submenu: [
        { label: 'API Documentation', click: () => void shell.openExternal(`${serverUrl}/api/adaptive/swagger-ui/`) },
        { label: 'Reveal Workspace', click: () => void shell.openPath(workspace) },
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function registerBridge(): void {
  const handlers: Record<string, (...args: unknown[]) => unknown> = {
    'workspace:open': async () => {
      const folder = await chooseWorkspace();
      if (folder) await openWorkspace(folder);
      return folder ?? null;
    },
    'workspace:recent': () => state.recentWorkspaces,
    'workspace:open-recent': async (folder) => {
      if (typeof folder !== 'string' || !state.recentWorkspaces.includes(folder))
        throw new Error('not a recent workspace');
      await openWorkspace(folder);
    },
    'file:reveal': (file) => {
      if (typeof file !== 'string' || !isInsideWorkspace(workspace, file))
        throw new Error('only files inside the workspace can be revealed');
      shell.showItemInFolder(path.resolve(workspace, file));
    },
  };
  for (const [channel, handler] of Object.entries(handlers)) {
    if (!isBridgeChannel(channel)) throw new Error(`channel ${channel} is not allow-listed`);
    ipcMain.handle(channel, (event, ...args) => {
      if (!isAllowedNavigation(event.senderFrame?.url ?? '', new URL(serverUrl).origin))
        throw new Error('refused: not the workbench');
      return handler(...args);
    });
  }
}

function createWindow(): void {
  const win = new BrowserWindow(windowOptions(path.join(here, 'preload.cjs'), state));
  window = win;
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  const remember = () => {
    state = { ...state, bounds: win.getNormalBounds(), maximized: win.isMaximized() };
    writeState(stateFile, state);
  };
  win.on('close', remember);
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url, new URL(serverUrl).origin)) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.whenReady().then(async () => {
    await startServer(initialWorkspace(state, exampleWorkspace));
    const origin = new URL(serverUrl).origin;
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({
        responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy(origin)] },
      });
    });
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    registerBridge();
    createWindow();
    buildMenu();
    await window!.loadURL(workbenchPageUrl);
  });
  app.on('window-all-closed', () => app.quit());
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing || !server) return;
    closing = true;
    event.preventDefault();
    // Requests in flight finish and async query jobs are marked before the process ends.
    void server.close().finally(() => app.quit());
  });
}
