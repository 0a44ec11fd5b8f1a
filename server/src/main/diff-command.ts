import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { defaultSpecLimits } from '../core/settings.js';
import { bundleSpec, diffSpecs, parseSpecText, workflowCommand, type SpecChange } from '../gateway/index.js';

/** The output formats of `adaptive-gateway diff`. */
export const diffFormats = ['text', 'json', 'github'] as const;

/** Options of `adaptive-gateway diff`. */
export interface DiffOptions {
  format: string;
  workspace: string;
}

const run = promisify(execFile);

/** `HEAD:specs/orders.yaml`, `v1.2:orders.json`: a revision and a path, as `git show` takes them. */
function gitObject(source: string): boolean {
  const colon = source.indexOf(':');
  // `C:\\specs\\a.yaml` is a Windows path, not a revision called C.
  return colon > 0 && !/^[A-Za-z]:[\\/]/.test(source) && !source.startsWith('-');
}

/**
 * The document `source` names: a file (bundled: its `$ref`s to files inside `workspace` are followed), or a
 * file at a git revision, read with `git show` (spawned without a shell; its own `$ref`s to other files are
 * compared as written).
 */
async function loadDocument(source: string, workspace: string): Promise<unknown> {
  const exists = await fs.stat(source).then(
    () => true,
    () => false,
  );
  if (exists || !gitObject(source)) {
    try {
      return bundleSpec(path.resolve(source), workspace, defaultSpecLimits).document;
    } catch (error) {
      throw new Error(`${source}: ${(error as Error).message}`, { cause: error });
    }
  }
  const { stdout } = await run('git', ['show', '--end-of-options', source], {
    maxBuffer: defaultSpecLimits.maxFileBytes,
    encoding: 'utf8',
  }).catch((error: Error & { stderr?: string }) => {
    throw new Error(`git show ${source}: ${(error.stderr ?? error.message).trim()}`, { cause: error });
  });
  return parseSpecText(stdout, source, defaultSpecLimits);
}

/** `changes` as `adaptive-gateway diff` prints them in `format`; annotations go on the `file` of the new version. */
export function formatChanges(
  changes: readonly SpecChange[],
  format: (typeof diffFormats)[number],
  file: string,
): string {
  if (format === 'json') return `${JSON.stringify(changes, null, 2)}\n`;
  if (format === 'github')
    return changes
      .map((c) =>
        workflowCommand(
          c.verdict === 'breaking' ? 'error' : 'notice',
          { file, title: `${c.verdict} ${c.kind}` },
          `${c.where}: ${c.message}`,
        ),
      )
      .join('');
  return changes.map((c) => `${c.verdict.padEnd(12)}  ${c.kind}  ${c.where}  ${c.message}\n`).join('');
}

function usageError(message: string): number {
  process.stderr.write(`adaptive-gateway diff: ${message}\n`);
  return 2;
}

/**
 * Compares the spec `oldSource` with `newSource` (each a file or `<revision>:<path>`) and prints every change
 * with its verdict; the exit code is 1 when any change is breaking, 2 when a spec cannot be read or the
 * options are wrong, else 0.
 */
export async function diffCommand(oldSource: string, newSource: string, options: DiffOptions): Promise<number> {
  if (!(diffFormats as readonly string[]).includes(options.format))
    return usageError(`--format must be one of ${diffFormats.join(', ')}`);
  const workspace = path.resolve(options.workspace);
  let documents: unknown[];
  try {
    documents = await Promise.all([loadDocument(oldSource, workspace), loadDocument(newSource, workspace)]);
  } catch (error) {
    return usageError((error as Error).message);
  }
  const changes = diffSpecs(documents[0], documents[1]);
  const shownFile = gitObject(newSource)
    ? newSource.slice(newSource.indexOf(':') + 1)
    : path.relative(process.cwd(), newSource) || newSource;
  process.stdout.write(formatChanges(changes, options.format as (typeof diffFormats)[number], shownFile));
  return changes.some((c) => c.verdict === 'breaking') ? 1 : 0;
}
