import { createHash, randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { WorkspaceEntry, WorkspaceFile, WorkspaceFileInfo } from '../contract/index.js';
import { HttpError, httpError } from '../core/errors.js';
import type { ResolvedPath, WorkspaceArea } from './workspace-paths.js';

/** Largest file the editor opens. */
export const maxEditableBytes = 5 * 1024 * 1024;
const maxTreeEntries = 10_000;
const maxTreeDepth = 12;

/**
 * The version of a file's content that saves are checked against: a hash of the bytes rather than the
 * mtime, which a quick second write within the file system's time resolution (or `git checkout`) can keep.
 */
export function contentVersion(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('base64url').slice(0, 22);
}

/** Maps a file system error to the catalogued error the client gets; unknown errors stay 500. */
function fileError(error: unknown, file: ResolvedPath): never {
  const code = (error as NodeJS.ErrnoException).code;
  const where = file.path;
  switch (code) {
    case 'ENOENT':
      throw httpError('WB_NOT_FOUND', [where]);
    case 'EEXIST':
    case 'ENOTEMPTY':
      throw httpError('WB_EXISTS', [where]);
    case 'EISDIR':
      throw httpError('WB_IS_FOLDER', [where]);
    case 'ENOTDIR':
      throw httpError('WB_PARENT_IS_FILE', [where]);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      throw httpError('WB_FORBIDDEN', [where, code]);
    case 'ENAMETOOLONG':
      throw httpError('WB_PATH_TOO_LONG', [where]);
    case 'EXDEV':
      throw httpError('WB_OTHER_FILE_SYSTEM', [where]);
    default:
      throw error;
  }
}

async function statOrUndefined(file: string): Promise<Stats | undefined> {
  try {
    return await fs.stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function byFolderThenName(a: WorkspaceEntry, b: WorkspaceEntry): number {
  if (a.type !== b.type) return a.type === 'directory' ? -1 : 1;
  return a.name.localeCompare(b.name);
}

/**
 * The tree of every area. Hidden entries and `node_modules` are left out, and so is any symlink whose
 * target lies outside its area (the API would refuse to open it anyway).
 */
export async function listWorkspace(areas: WorkspaceArea[]): Promise<WorkspaceEntry[]> {
  let budget = maxTreeEntries;

  async function listFolder(
    dir: string,
    workspacePath: string,
    realRoot: string,
    depth: number,
  ): Promise<WorkspaceEntry[]> {
    if (depth > maxTreeDepth) return [];
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch {
      return [];
    }
    const entries: WorkspaceEntry[] = [];
    for (const name of names.sort()) {
      if (budget <= 0) break;
      if (name.startsWith('.') || name === 'node_modules') continue;
      const absolute = path.join(dir, name);
      const stat = await statOrUndefined(absolute);
      if (!stat) continue;
      const real = await fs.realpath(absolute).catch(() => undefined);
      if (!real || path.relative(realRoot, real).startsWith('..')) continue;
      budget--;
      const entryPath = `${workspacePath}/${name}`;
      if (stat.isDirectory()) {
        entries.push({
          path: entryPath,
          name,
          type: 'directory',
          mtimeMs: stat.mtimeMs,
          children: await listFolder(absolute, entryPath, realRoot, depth + 1),
        });
      } else if (stat.isFile()) {
        entries.push({ path: entryPath, name, type: 'file', size: stat.size, mtimeMs: stat.mtimeMs });
      }
    }
    return entries.sort(byFolderThenName);
  }

  const result: WorkspaceEntry[] = [];
  for (const area of areas) {
    const stat = await statOrUndefined(area.root);
    if (area.type === 'file') {
      if (stat?.isFile())
        result.push({ path: area.name, name: area.name, type: 'file', size: stat.size, mtimeMs: stat.mtimeMs });
      continue;
    }
    const realRoot = stat?.isDirectory() ? await fs.realpath(area.root) : area.root;
    const children = stat?.isDirectory() ? await listFolder(area.root, area.name, realRoot, 1) : [];
    result.push({ path: area.name, name: area.name, type: 'directory', mtimeMs: stat?.mtimeMs ?? 0, children });
  }
  return result;
}

/** Reads a text file of the workspace. Folders, binary files and files over {@link maxEditableBytes} are refused. */
export async function readWorkspaceFile(file: ResolvedPath): Promise<WorkspaceFile> {
  try {
    const stat = await fs.stat(file.absolute);
    if (stat.isDirectory()) throw httpError('WB_IS_FOLDER', [file.path]);
    if (stat.size > maxEditableBytes) throw httpError('WB_FILE_TOO_LARGE', [file.path, maxEditableBytes]);
    const bytes = await fs.readFile(file.absolute);
    if (bytes.includes(0)) throw httpError('WB_BINARY_FILE', [file.path]);
    return {
      path: file.path,
      content: bytes.toString('utf8'),
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      version: contentVersion(bytes),
    };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    return fileError(error, file);
  }
}

/** The entry as it is on disk; with `content`, the version of what was just written. */
async function infoOf(file: ResolvedPath, content?: string): Promise<WorkspaceFileInfo> {
  const stat = await fs.stat(file.absolute);
  const info: WorkspaceFileInfo = {
    path: file.path,
    type: stat.isDirectory() ? 'directory' : 'file',
    size: stat.isDirectory() ? 0 : stat.size,
    mtimeMs: stat.mtimeMs,
  };
  if (content !== undefined) info.version = contentVersion(content);
  return info;
}

/** Refuses (409) a save based on `baseVersion` when the file on disk is no longer that version. */
async function refuseStale(file: ResolvedPath, baseVersion: string): Promise<void> {
  const bytes = await fs.readFile(file.absolute).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (bytes === undefined) throw httpError('WB_STALE_SAVE', [file.path, 'it was deleted']);
  const current = contentVersion(bytes);
  if (current !== baseVersion)
    throw httpError('WB_STALE_SAVE', [file.path, `version ${baseVersion} was read, the disk has ${current}`]);
}

/** Writes `content` to a new temp file in `dir` and syncs it; returns the temp file's path. */
async function writeTemp(dir: string, target: string, content: string, mode: number): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'wx', mode);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await fs.rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  return temp;
}

/**
 * Writes `content` to a synced temp file and moves it to `target` with `move` (rename or link), which
 * is atomic on one file system. The temp file goes to `tempDir`, outside the folders the gateway
 * watches, so the watcher sees one change (the new file) rather than a temp file coming and going;
 * when `tempDir` is on another file system, beside the target instead.
 */
async function placeAtomically(
  target: string,
  content: string,
  mode: number,
  tempDir: string,
  move: (temp: string, target: string) => Promise<void>,
): Promise<void> {
  for (const dir of [tempDir, path.dirname(target)]) {
    const temp = await writeTemp(dir, target, content, mode);
    try {
      await move(temp, target);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV' || dir !== tempDir) throw error;
    } finally {
      await fs.rm(temp, { force: true });
    }
  }
}

/** Refuses content the editor could not open again (413 naming the limit), before anything is written. */
function refuseOversized(content: string): void {
  if (Buffer.byteLength(content) > maxEditableBytes) throw httpError('WB_CONTENT_TOO_LARGE', [maxEditableBytes]);
}

function refuseAreaRoot(file: ResolvedPath, action: string): void {
  if (file.isAreaRoot && file.area.type === 'directory') throw httpError('WB_AREA_ROOT', [file.area.name, action]);
}

/**
 * Replaces (or creates) a file atomically: the content goes to a synced temp file, then is renamed
 * over the target, so a reader (the gateway's reload) sees the old or the new file, never half of
 * one, even if the process dies mid-write. With `baseVersion`, only while the file on disk is still
 * that version (409 otherwise, nothing written): an edit of an older copy never overwrites a newer one.
 * Callers serialise writes of one path, so the check and the rename are not interleaved with another save.
 */
export async function writeWorkspaceFile(
  file: ResolvedPath,
  content: string,
  tempDir: string,
  baseVersion?: string,
): Promise<WorkspaceFileInfo> {
  refuseAreaRoot(file, 'written');
  refuseOversized(content);
  try {
    const existing = await statOrUndefined(file.absolute);
    if (existing?.isDirectory()) throw httpError('WB_IS_FOLDER', [file.path]);
    if (baseVersion !== undefined) await refuseStale(file, baseVersion);
    await fs.mkdir(path.dirname(file.absolute), { recursive: true });
    await placeAtomically(file.absolute, content, existing ? existing.mode & 0o777 : 0o644, tempDir, fs.rename);
    return await infoOf(file, content);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    return fileError(error, file);
  }
}

/**
 * Creates a file (with `content`, atomically) or a folder; 409 when something already has that path.
 * A hard link from the synced temp file is an exclusive create: it fails instead of overwriting.
 */
export async function createWorkspaceEntry(
  file: ResolvedPath,
  type: 'file' | 'directory',
  content: string,
  tempDir: string,
): Promise<WorkspaceFileInfo> {
  refuseAreaRoot(file, 'created');
  refuseOversized(content);
  try {
    if (type === 'directory') {
      await fs.mkdir(path.dirname(file.absolute), { recursive: true });
      await fs.mkdir(file.absolute);
      return await infoOf(file);
    }
    await fs.mkdir(path.dirname(file.absolute), { recursive: true });
    await placeAtomically(file.absolute, content, 0o644, tempDir, fs.link);
    return await infoOf(file, content);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    return fileError(error, file);
  }
}

/** Renames a file or folder; 409 when the destination exists. */
export async function renameWorkspaceEntry(from: ResolvedPath, to: ResolvedPath): Promise<WorkspaceFileInfo> {
  refuseAreaRoot(from, 'renamed');
  refuseAreaRoot(to, 'replaced');
  try {
    await fs.lstat(from.absolute);
    if (await statOrUndefined(to.absolute)) throw httpError('WB_EXISTS', [to.path]);
    if (to.path.startsWith(`${from.path}/`)) throw httpError('WB_MOVE_INTO_ITSELF', [from.path]);
    await fs.mkdir(path.dirname(to.absolute), { recursive: true });
    await fs.rename(from.absolute, to.absolute);
    return await infoOf(to);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    return fileError(error, from);
  }
}

/** Deletes a file, or a folder with everything in it. A symlink is removed, never what it points to. */
export async function deleteWorkspaceEntry(file: ResolvedPath): Promise<void> {
  refuseAreaRoot(file, 'deleted');
  try {
    const stat = await fs.lstat(file.absolute);
    await fs.rm(file.absolute, { recursive: stat.isDirectory(), force: false });
  } catch (error) {
    return fileError(error, file);
  }
}
