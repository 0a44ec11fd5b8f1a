import path from 'node:path';
import type { LintFinding, LintSeverity } from './spectral-linter.js';

/** The output formats of `adaptive-gateway lint`. */
export const lintFormats = ['text', 'json', 'junit', 'github'] as const;
/** One of {@link lintFormats}. */
export type LintFormat = (typeof lintFormats)[number];

const rank: Record<LintSeverity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

/** Severity names as `--fail-severity` takes them (Spectral's CLI says `warn`). */
export function parseSeverity(name: string): LintSeverity | undefined {
  const severity = name === 'warn' ? 'warning' : name;
  return severity in rank ? (severity as LintSeverity) : undefined;
}

/** Whether any finding is at `failSeverity` or more serious. */
export function failsAt(findings: readonly LintFinding[], failSeverity: LintSeverity): boolean {
  return findings.some((f) => rank[f.severity] <= rank[failSeverity]);
}

function xml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}

function junit(findings: readonly LintFinding[], files: readonly string[]): string {
  const suites = files.map((file) => {
    const own = findings.filter((f) => f.file === file);
    const cases = own.map(
      (f) =>
        `    <testcase classname="${xml(file)}" name="${xml(`${f.rule} at ${f.line}:${f.column}`)}">\n` +
        `      <failure type="${f.severity}" message="${xml(f.message)}">${xml(f.path)}</failure>\n    </testcase>`,
    );
    const failures = own.length;
    const body = cases.length ? cases.join('\n') : `    <testcase classname="${xml(file)}" name="lint"/>`;
    const counts = `tests="${Math.max(1, failures)}" failures="${failures}"`;
    return `  <testsuite name="${xml(file)}" ${counts}>\n${body}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join('\n')}\n</testsuites>\n`;
}

/**
 * One GitHub Actions workflow command (`::error file=a.yaml,line=3,title=rule::message`): an annotation of the
 * run, on a line of a file when `properties` name them. Values and message are escaped as the runner expects.
 */
export function workflowCommand(
  level: 'error' | 'warning' | 'notice',
  properties: Record<string, string | number | undefined>,
  message: string,
): string {
  const escape = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const shown = Object.entries(properties)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${escape(String(value)).replace(/:/g, '%3A').replace(/,/g, '%2C')}`)
    .join(',');
  return `::${level} ${shown}::${escape(message)}\n`;
}

/** GitHub Actions workflow commands: each finding becomes an annotation on its line. */
function github(findings: readonly LintFinding[]): string {
  const level = { error: 'error', warning: 'warning', info: 'notice', hint: 'notice' } as const;
  return findings
    .map((f) =>
      workflowCommand(level[f.severity], { file: f.file, line: f.line, col: f.column, title: f.rule }, f.message),
    )
    .join('');
}

/** `findings` of the linted `files` in `format`; paths are shown relative to `cwd`. */
export function formatFindings(
  findings: readonly LintFinding[],
  files: readonly string[],
  format: LintFormat,
  cwd: string,
): string {
  const relative = (file: string) => path.relative(cwd, file) || file;
  const shown = findings.map((f) => ({ ...f, file: relative(f.file) }));
  if (format === 'json') return `${JSON.stringify(shown, null, 2)}\n`;
  if (format === 'junit') return junit(shown, files.map(relative));
  if (format === 'github') return github(shown);
  return shown.map((f) => `${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule} ${f.message}\n`).join('');
}
