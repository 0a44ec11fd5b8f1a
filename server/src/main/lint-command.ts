import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  failsAt,
  findRulesetFile,
  formatFindings,
  isSpecFile,
  lintFormats,
  LintPool,
  parseSeverity,
  type LintFinding,
  type LintFormat,
} from '../gateway/index.js';

/** Options of `adaptive-gateway lint`. */
export interface LintOptions {
  format: string;
  failSeverity: string;
  ruleset?: string;
  workspace: string;
}

/** The spec files of `target`: itself when a file, else the spec files in the folder and its subfolders. */
async function specFilesOf(target: string): Promise<string[]> {
  const stat = await fs.stat(target);
  if (!stat.isDirectory()) return [path.resolve(target)];
  const entries = await fs.readdir(target, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && isSpecFile(e.name))
    .map((e) => path.resolve(e.parentPath, e.name))
    .sort();
}

function usageError(message: string): number {
  process.stderr.write(`adaptive-gateway lint: ${message}\n`);
  return 2;
}

/**
 * Lints `targets` with the workspace's ruleset (or `spectral:oas`) and prints the findings; the exit code is 1
 * when a finding is at the fail severity or a file could not be linted, 2 on a usage error, else 0.
 */
export async function lintCommand(targets: string[], options: LintOptions): Promise<number> {
  const failSeverity = parseSeverity(options.failSeverity);
  if (!failSeverity) return usageError(`--fail-severity must be error, warn, info or hint`);
  if (!(lintFormats as readonly string[]).includes(options.format))
    return usageError(`--format must be one of ${lintFormats.join(', ')}`);
  const root = path.resolve(options.workspace);
  const rulesetFile = options.ruleset ? path.resolve(options.ruleset) : await findRulesetFile(root);
  let files: string[];
  try {
    files = (await Promise.all(targets.map(specFilesOf))).flat();
  } catch (error) {
    return usageError((error as Error).message);
  }
  const pool = new LintPool();
  const findings: LintFinding[] = [];
  try {
    for (const file of files) {
      try {
        findings.push(...(await pool.lint(file, root, rulesetFile)));
      } catch (error) {
        findings.push({
          file,
          line: 1,
          column: 1,
          severity: 'error',
          rule: 'lint',
          message: (error as Error).message,
          path: '',
        });
      }
    }
  } finally {
    pool.close();
  }
  process.stdout.write(formatFindings(findings, files, options.format as LintFormat, process.cwd()));
  return failsAt(findings, failSeverity) ? 1 : 0;
}
