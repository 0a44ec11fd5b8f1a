import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceUnit } from './route-table.js';

/** What a loader says about the files of its folder. */
export interface FolderRule {
  kind: WorkspaceUnit['kind'];
  dir: string;
  /** True for the file names this loader reads (`*.yaml`, `*_handler.ts`, ...). */
  accepts(fileName: string): boolean;
  /**
   * The naming rule of the folder, said of a file no loader of the folder reads (`handler files must be named
   * <name>_handler.ts`); unset: such files are not looked for (a folder given to `serve`, a second loader of it).
   */
  unloadedReason?: string;
  /** True for the file names of companions this loader reads beside its files (a spec's `*.mock.yaml`). */
  companion?(fileName: string): boolean;
}

/** Files a workspace folder holds for tools and people, never loaded and never worth a warning. */
const companionFile = /^(tsconfig(\..+)?\.json|package(-lock)?\.json|requirements\.txt|readme(\..+)?|.+\.d\.ts)$/i;

/** A file of a loader's folder that no loader reads, with the naming rule it misses. */
export interface UnloadedFile {
  kind: WorkspaceUnit['kind'];
  dir: string;
  file: string;
  reason: string;
}

/** The names of the plain files (or links to files) directly in `dir`, hidden ones left out. */
function topLevelFiles(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith('.') && (entry.isFile() || entry.isSymbolicLink()))
      .filter((entry) => entry.isFile() || fs.statSync(path.join(dir, entry.name), { throwIfNoEntry: false })?.isFile())
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function realPath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * The files directly in a loader's folder that no loader of that folder reads and no loaded file uses: a
 * handler folder's `orders.ts` (not `*_handler.ts`), a specs folder's `orders.txt`. A file a loaded spec
 * references or a loaded handler imports is a helper, not listed; so are files in subfolders (where helpers
 * live), hidden files and the folder's project files (`tsconfig.json`, `package.json`, `README.md`, `*.d.ts`).
 * Only folders whose loader states a naming rule (`unloadedReason`) are looked at.
 */
export function unloadedFiles(loaders: readonly FolderRule[], units: Iterable<WorkspaceUnit>): UnloadedFile[] {
  const used = new Set<string>();
  for (const unit of units) for (const input of unit.inputs ?? []) used.add(input);
  const result: UnloadedFile[] = [];
  const dirs = new Set(loaders.map((loader) => loader.dir));
  for (const dir of dirs) {
    const ofDir = loaders.filter((loader) => loader.dir === dir);
    const stating = ofDir.find((loader) => loader.unloadedReason !== undefined);
    if (!stating) continue;
    for (const file of topLevelFiles(dir)) {
      if (companionFile.test(file) || ofDir.some((loader) => loader.accepts(file) || loader.companion?.(file)))
        continue;
      const full = path.join(dir, file);
      if (used.has(full) || used.has(realPath(full))) continue;
      result.push({ kind: stating.kind, dir, file, reason: stating.unloadedReason! });
    }
  }
  return result;
}
