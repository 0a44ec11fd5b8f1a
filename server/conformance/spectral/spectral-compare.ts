import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCorpusManifest } from '../corpus/manifest.js';

/** One finding reduced to what both sides must agree on. */
interface ComparableFinding {
  rule: string;
  path: string;
  line: number;
}

/** The outcome for one corpus file: equal, differing (with the findings only one side has), or not compared. */
export interface SpectralComparison {
  file: string;
  verdict: 'equal' | 'differing' | 'timeout' | 'failed';
  onlyOurs: ComparableFinding[];
  onlyCli: ComparableFinding[];
  detail?: string;
}

/** Longest either side may take on one file: hostile documents must not stall the run. */
const perFileTimeoutMs = 120_000;

const here = path.dirname(fileURLToPath(import.meta.url));
const spectralBin = createRequire(import.meta.url).resolve('@stoplight/spectral-cli');

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { timeout: perFileTimeoutMs, maxBuffer: 256 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout) => {
        // Spectral's CLI exits 1 when it finds errors: its output is still the answer.
        if (error && (error.killed || error.signal)) reject(new Error('timeout'));
        else if (error && stdout.trim() === '') reject(error);
        else resolve(stdout);
      },
    );
  });
}

const key = (f: ComparableFinding) => `${f.rule}\u0000${f.path}\u0000${f.line}`;

function difference(a: ComparableFinding[], b: ComparableFinding[]): ComparableFinding[] {
  const remaining = new Map<string, number>();
  for (const f of b) remaining.set(key(f), (remaining.get(key(f)) ?? 0) + 1);
  return a.filter((f) => {
    const left = remaining.get(key(f)) ?? 0;
    if (left > 0) remaining.set(key(f), left - 1);
    return left === 0;
  });
}

/** Compares the workbench's findings with Spectral's CLI (same `spectral:oas` ruleset) on one file. */
async function compareFile(
  corpusDir: string,
  file: string,
  root: string,
  ruleset: string,
): Promise<SpectralComparison> {
  const absolute = path.join(corpusDir, file);
  try {
    const [ours, cli] = await Promise.all([
      run(process.execPath, [path.join(here, 'spectral-child.js'), absolute, path.join(corpusDir, root)]),
      run(process.execPath, [
        spectralBin,
        'lint',
        '-q',
        '-f',
        'json',
        '--ignore-unknown-format',
        '-r',
        ruleset,
        absolute,
      ]),
    ]);
    const ourFindings = (JSON.parse(ours) as { rule: string; path: string; line: number }[]).map((f) => ({
      rule: f.rule,
      path: f.path,
      line: f.line,
    }));
    const cliFindings = (
      JSON.parse(cli) as { code: string | number; path: string[]; range: { start: { line: number } } }[]
    ).map((d) => ({ rule: String(d.code), path: d.path.join('.'), line: d.range.start.line + 1 }));
    const onlyOurs = difference(ourFindings, cliFindings);
    const onlyCli = difference(cliFindings, ourFindings);
    const verdict = onlyOurs.length === 0 && onlyCli.length === 0 ? 'equal' : 'differing';
    return { file, verdict, onlyOurs, onlyCli };
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { file, verdict: detail === 'timeout' ? 'timeout' : 'failed', onlyOurs: [], onlyCli: [], detail };
  }
}

/**
 * Lints every entry spec of the corpus with the workbench's linter and with Spectral's own CLI, two files at a
 * time, and reports each file as equal or differing (with the findings only one side has).
 */
export async function runSpectralComparison(
  corpusDir: string,
  options: { only?: string; onComparison(c: SpectralComparison): void },
): Promise<SpectralComparison[]> {
  const specs = readCorpusManifest(corpusDir).filter((s) => !options.only || s.file.includes(options.only));
  const ruleset = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spectral-compare-')), '.spectral.yaml');
  fs.writeFileSync(ruleset, 'extends: [[spectral:oas, recommended]]\n');
  const results: SpectralComparison[] = [];
  let next = 0;
  const worker = async () => {
    while (next < specs.length) {
      const spec = specs[next++];
      const comparison = await compareFile(corpusDir, spec.file, spec.specsRoot, ruleset);
      options.onComparison(comparison);
      results.push(comparison);
    }
  };
  try {
    await Promise.all([worker(), worker()]);
  } finally {
    fs.rmSync(path.dirname(ruleset), { recursive: true, force: true });
  }
  return results;
}
