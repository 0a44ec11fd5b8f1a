import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../core/config.js';
import { httpError } from '../core/errors.js';

/**
 * One editable area of the workspace: a folder (`specs`, `handlers`, `query`) or a single file
 * (`health.yaml`). The workbench names files by workspace path (`specs/a.openapi.yaml`); the area maps
 * the first segment to the folder the server really uses, which the configuration may put elsewhere.
 */
export interface WorkspaceArea {
  name: string;
  type: 'directory' | 'file';
  root: string;
}

/** A workspace path that passed every check, with the file system path it stands for. */
export interface ResolvedPath {
  /** Normalised workspace path (`specs/a.yaml`). */
  path: string;
  area: WorkspaceArea;
  /** Absolute file system path (not symlink-resolved: renames and deletes act on the link itself). */
  absolute: string;
  /** True for the area's own root (`specs`, `health.yaml`). */
  isAreaRoot: boolean;
}

/** The areas of a server's workspace, in the order the explorer shows them. */
export function workspaceAreas(config: Config): WorkspaceArea[] {
  return [
    { name: 'specs', type: 'directory', root: config.specsDir },
    { name: 'handlers', type: 'directory', root: config.handlersDir },
    { name: 'query', type: 'directory', root: config.queryDir },
    { name: 'health.yaml', type: 'file', root: config.healthConfig },
  ];
}

const maxPathLength = 1024;
/** The longest file or folder name Linux, macOS and Windows file systems all take (NAME_MAX). */
export const maxNameBytes = 255;

function refuse(raw: string, why: string): never {
  throw httpError('WB_PATH_REFUSED', [JSON.stringify(raw.slice(0, 200)), why]);
}

/**
 * Checks the spelling of a workspace path and maps it to its area. Refuses (403) anything that is not a
 * plain relative path inside one area: `..` and `.` segments, absolute paths, backslashes, control
 * characters (NUL), percent-encoded sequences left after the URL was decoded, hidden segments
 * (`.git`, Kubernetes' `..data`, our own temp files) and paths outside the four areas.
 */
export function parseWorkspacePath(areas: WorkspaceArea[], raw: unknown): ResolvedPath {
  if (typeof raw !== 'string' || raw === '') throw httpError('WB_PATH_REQUIRED');
  if (raw.length > maxPathLength) refuse(raw, `longer than ${maxPathLength} characters`);
  if ([...raw].some((char) => char < ' ' || char === '\u007f')) refuse(raw, 'it contains control characters');
  if (raw.includes('\\')) refuse(raw, 'use / as the separator');
  if (/%[0-9a-f]{2}/i.test(raw)) refuse(raw, 'it contains percent-encoded characters');
  if (raw.startsWith('/') || /^[a-z]:/i.test(raw)) refuse(raw, 'absolute paths are outside the workspace');
  const segments = raw.split('/');
  if (segments.at(-1) === '') segments.pop();
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..')
      refuse(raw, 'it leaves the workspace or is not normalised');
    if (segment.startsWith('.')) refuse(raw, 'hidden files are not part of the workspace');
    if (Buffer.byteLength(segment) > maxNameBytes)
      throw httpError('WB_NAME_TOO_LONG', [maxNameBytes, `${segment.slice(0, 40)}…`]);
  }
  const area = areas.find((a) => a.name === segments[0]);
  if (!area) refuse(raw, `outside the workspace areas (${areas.map((a) => a.name).join(', ')})`);
  if (area.type === 'file' && segments.length > 1) refuse(raw, `${area.name} is a file`);
  const rest = segments.slice(1);
  return {
    path: segments.join('/'),
    area,
    absolute: rest.length === 0 ? area.root : path.join(area.root, ...rest),
    isAreaRoot: rest.length === 0,
  };
}

/**
 * The real path of `target`: every symlink followed, including a dangling one (whose target does not
 * exist yet, so a write would create it wherever it points). Missing tail segments are appended as they are.
 */
function realPathOf(target: string, hops = 0): string {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(current), ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const link = fs.lstatSync(current, { throwIfNoEntry: false });
      if (link?.isSymbolicLink()) {
        if (hops > 40) throw error;
        const pointsTo = path.resolve(path.dirname(current), fs.readlinkSync(current));
        return path.join(realPathOf(pointsTo, hops + 1), ...missing.reverse());
      }
      const parent = path.dirname(current);
      if (parent === current) return path.join(current, ...missing.reverse());
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Parses a workspace path and checks that, with every symlink followed, it stays inside its area:
 * a link that points out of the workspace is refused (403) like `..`.
 */
export function resolveWorkspacePath(areas: WorkspaceArea[], raw: unknown): ResolvedPath {
  const resolved = parseWorkspacePath(areas, raw);
  const realRoot = realPathOf(resolved.area.root);
  const realTarget = realPathOf(resolved.absolute);
  if (resolved.area.type === 'file' ? realTarget !== realRoot : !isInside(realTarget, realRoot)) {
    refuse(resolved.path, 'it resolves outside the workspace through a symbolic link');
  }
  return resolved;
}
