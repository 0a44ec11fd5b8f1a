/**
 * The desktop app's decisions that need no Electron: window options, navigation rules, remembered
 * state (the bridge allow-list is in channels.ts). Kept apart from main.ts so they are tested without
 * an Electron binary.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

/** What the app remembers between runs (in `userData/state.json`). */
export interface AppState {
  recentWorkspaces: string[];
  bounds?: WindowBounds;
  maximized?: boolean;
}

const maxRecent = 10;
const defaultBounds: WindowBounds = { width: 1400, height: 900 };

/** Options of the main window: isolated, sandboxed renderer without Node, with the preload bridge only. */
export function windowOptions(preloadPath: string, state: AppState) {
  const bounds = state.bounds && state.bounds.width >= 400 && state.bounds.height >= 300 ? state.bounds : defaultBounds;
  return {
    ...bounds,
    minWidth: 800,
    minHeight: 500,
    show: false,
    title: 'Adaptive Workbench',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  };
}

/** The Content-Security-Policy of the app's pages: only the embedded server, no remote code. */
export function contentSecurityPolicy(serverOrigin: string): string {
  return [
    `default-src 'self' ${serverOrigin}`,
    `script-src 'self' ${serverOrigin}`,
    `style-src 'self' ${serverOrigin} 'unsafe-inline'`,
    `img-src 'self' ${serverOrigin} data: blob:`,
    `font-src 'self' ${serverOrigin} data:`,
    `connect-src 'self' ${serverOrigin}`,
    `worker-src 'self' ${serverOrigin} blob:`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Navigation stays inside the embedded server's workbench; anything else is refused. */
export function isAllowedNavigation(url: string, serverOrigin: string): boolean {
  try {
    const target = new URL(url);
    return target.origin === serverOrigin && target.pathname.startsWith('/workbench/');
  } catch {
    return false;
  }
}

/** Links to open in the system browser instead: plain web pages only. */
export function isExternalLink(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/** Moves `workspace` to the front of the recent list, without duplicates, at most ten. */
export function rememberWorkspace(state: AppState, workspace: string): AppState {
  const resolved = path.resolve(workspace);
  return {
    ...state,
    recentWorkspaces: [resolved, ...state.recentWorkspaces.filter((w) => w !== resolved)].slice(0, maxRecent),
  };
}

/** The workspace to open at start: the last one that still exists, else the example workspace. */
export function initialWorkspace(state: AppState, exampleWorkspace: string): string {
  return state.recentWorkspaces.find((w) => fs.existsSync(w)) ?? exampleWorkspace;
}

/** Reads the remembered state; a missing or damaged file gives a fresh state. */
export function readState(file: string): AppState {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<AppState>;
    return {
      recentWorkspaces: Array.isArray(value.recentWorkspaces)
        ? value.recentWorkspaces.filter((w): w is string => typeof w === 'string')
        : [],
      bounds: value.bounds,
      maximized: value.maximized === true,
    };
  } catch {
    return { recentWorkspaces: [] };
  }
}

/** Writes the state atomically (temp file + rename). */
export function writeState(file: string, state: AppState): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(state, null, 2));
  fs.renameSync(temp, file);
}

/** True when `file` lies inside `workspace` (the only files "reveal" may show). */
export function isInsideWorkspace(workspace: string, file: string): boolean {
  const relative = path.relative(path.resolve(workspace), path.resolve(workspace, file));
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
