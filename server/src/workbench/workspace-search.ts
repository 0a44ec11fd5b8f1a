import fs from 'node:fs/promises';
import type { WorkspaceEntry, WorkspaceSearchMatch, WorkspaceSearchResult } from '../contract/index.js';
import { httpError } from '../core/errors.js';
import { listWorkspace, maxEditableBytes } from './workspace-files.js';
import { resolveWorkspacePath, type WorkspaceArea } from './workspace-paths.js';

/** The longest text searched for: a search is for a name or a phrase, not a document. */
export const maxSearchQuery = 200;
/** The most matching lines one answer holds. */
export const maxSearchMatches = 500;
/** How much of a long line a match shows. */
const lineWindow = 240;

/** The files of the tree, depth first (the order the explorer shows them). */
function filesOf(entries: WorkspaceEntry[]): WorkspaceEntry[] {
  return entries.flatMap((entry) => (entry.type === 'directory' ? filesOf(entry.children ?? []) : [entry]));
}

/** A line's text for the answer: the whole line when short, else a window that starts a little before the match. */
function lineExcerpt(line: string, index: number): string {
  if (line.length <= lineWindow) return line;
  const start = Math.max(0, index - 40);
  return `${start > 0 ? '…' : ''}${line.slice(start, start + lineWindow)}…`;
}

/** The lines of one file's text that contain `needle` (lower case), up to `room` of them. */
function matchLines(path: string, text: string, needle: string, room: number): WorkspaceSearchMatch[] {
  const matches: WorkspaceSearchMatch[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length && matches.length < room; i++) {
    const index = lines[i].toLowerCase().indexOf(needle);
    if (index >= 0) matches.push({ path, line: i + 1, column: index + 1, text: lineExcerpt(lines[i], index) });
  }
  return matches;
}

/**
 * The lines of the workspace's text files that contain `query`, ignoring case: a plain substring, never a
 * pattern, so no text can make the search slow. Only the files the explorer lists (the same symlink and
 * hidden-name rules), each resolved again as the file API does; binary files and files over the editor's
 * limit are left out. At most {@link maxSearchMatches} lines; `truncated` says when more matched or a file
 * was left out for its size.
 */
export async function searchWorkspace(areas: WorkspaceArea[], query: unknown): Promise<WorkspaceSearchResult> {
  if (typeof query !== 'string' || query.length === 0 || query.length > maxSearchQuery)
    throw httpError('WB_SEARCH_QUERY', [maxSearchQuery]);
  const needle = query.toLowerCase();
  const matches: WorkspaceSearchMatch[] = [];
  let truncated = false;
  for (const entry of filesOf(await listWorkspace(areas))) {
    if (matches.length > maxSearchMatches) break;
    if ((entry.size ?? 0) > maxEditableBytes) {
      truncated = true;
      continue;
    }
    const content = await fs.readFile(resolveWorkspacePath(areas, entry.path).absolute).catch(() => undefined);
    if (!content || content.includes(0)) continue;
    const found = matchLines(entry.path, content.toString('utf8'), needle, maxSearchMatches + 1 - matches.length);
    matches.push(...found);
  }
  if (matches.length > maxSearchMatches) {
    truncated = true;
    matches.length = maxSearchMatches;
  }
  return { matches, truncated };
}
