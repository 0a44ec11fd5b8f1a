import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCorpusManifest, type CorpusSpec } from '../corpus/manifest.js';

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
        // A child that printed its answer and then exited non-zero still answered (see runSpectralCli for the CLI).
        if (error && (error.killed || error.signal)) reject(new Error('timeout'));
        else if (error && stdout.trim() === '') reject(error);
        else resolve(stdout);
      },
    );
  });
}

/**
 * Spectral CLI's JSON findings for `files`. They are written to a file: the CLI exits as soon as it has written
 * its output, and a large output written to a pipe is then cut short (seen on DigitalOcean's and Webex's specs).
 */
async function runSpectralCli(ruleset: string, files: string[]): Promise<string> {
  const output = path.join(path.dirname(ruleset), `cli-${process.hrtime.bigint()}.json`);
  try {
    const args = ['lint', '-q', '-f', 'json', '-o', output, '--ignore-unknown-format', '-r', ruleset, ...files];
    await run(process.execPath, [spectralBin, ...args]).catch((error: unknown) => {
      // Findings of severity error make the CLI exit 1; the file it wrote is still the answer.
      if (!(error instanceof Error && error.message !== 'timeout' && fs.existsSync(output))) throw error;
    });
    return fs.readFileSync(output, 'utf8');
  } finally {
    fs.rmSync(output, { force: true });
  }
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

/** One Spectral CLI diagnostic, as its JSON format writes it. */
interface CliDiagnostic {
  code: string | number;
  path: string[];
  source?: string;
  range: { start: { line: number } };
}

/** Files linted by one start of each side, at most, and at most this many bytes of them. */
const batchFiles = 8;
const batchBytes = 1024 * 1024;

/** `specs` in consecutive batches of the same specs folder, within {@link batchFiles} and {@link batchBytes}. */
function batches(specs: CorpusSpec[]): CorpusSpec[][] {
  const result: CorpusSpec[][] = [];
  for (const spec of specs) {
    const last = result.at(-1);
    const fits =
      last &&
      last.length < batchFiles &&
      last[0].specsRoot === spec.specsRoot &&
      last.reduce((sum, s) => sum + s.bytes, spec.bytes) <= batchBytes;
    if (fits) last.push(spec);
    else result.push([spec]);
  }
  return result;
}

function verdict(file: string, ours: ComparableFinding[], cli: ComparableFinding[]): SpectralComparison {
  const onlyOurs = difference(ours, cli);
  const onlyCli = difference(cli, ours);
  return { file, verdict: onlyOurs.length + onlyCli.length === 0 ? 'equal' : 'differing', onlyOurs, onlyCli };
}

/**
 * Compares the workbench's findings with Spectral's CLI (same `spectral:oas` ruleset) on `specs`, one start of
 * each side for all of them. A batch that fails, or whose CLI findings name a file outside it (a referenced file,
 * which could belong to several), is compared again one file at a time.
 */
async function compareBatch(corpusDir: string, specs: CorpusSpec[], ruleset: string): Promise<SpectralComparison[]> {
  const files = specs.map((s) => path.join(corpusDir, s.file));
  const again = async () => {
    const results: SpectralComparison[] = [];
    for (const spec of specs) results.push(...(await compareBatch(corpusDir, [spec], ruleset)));
    return results;
  };
  try {
    const [ours, cli] = await Promise.all([
      run(process.execPath, [path.join(here, 'spectral-child.js'), path.join(corpusDir, specs[0].specsRoot), ...files]),
      runSpectralCli(ruleset, files),
    ]);
    const ourResults = JSON.parse(ours) as Record<string, ComparableFinding[] | { error: string }>;
    const cliDiagnostics = JSON.parse(cli) as CliDiagnostic[];
    const single = specs.length === 1;
    if (!single && cliDiagnostics.some((d) => !files.includes(path.resolve(d.source ?? '')))) return again();
    return specs.map((spec, i) => {
      const own = ourResults[files[i]];
      if (!Array.isArray(own))
        return { file: spec.file, verdict: 'failed', onlyOurs: [], onlyCli: [], detail: `ours: ${own.error}` };
      const cliFindings = cliDiagnostics
        .filter((d) => single || path.resolve(d.source ?? '') === files[i])
        .map((d) => ({ rule: String(d.code), path: d.path.join('.'), line: d.range.start.line + 1 }));
      return verdict(
        spec.file,
        own.map(({ rule, path, line }) => ({ rule, path, line })),
        cliFindings,
      );
    });
  } catch (error) {
    if (specs.length > 1) return again();
    const detail = error instanceof Error ? error.message.split('\n').slice(0, 2).join(' ') : String(error);
    return [
      { file: specs[0].file, verdict: detail === 'timeout' ? 'timeout' : 'failed', onlyOurs: [], onlyCli: [], detail },
    ];
  }
}

/**
 * Lints every entry spec of the corpus with the workbench's linter and with Spectral's own CLI, two batches at
 * a time, and reports each file as equal or differing (with the findings only one side has).
 */
export async function runSpectralComparison(
  corpusDir: string,
  options: { only?: string; onComparison(c: SpectralComparison): void },
): Promise<SpectralComparison[]> {
  const specs = readCorpusManifest(corpusDir).filter((s) => !options.only || s.file.includes(options.only));
  const ruleset = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spectral-compare-')), '.spectral.yaml');
  fs.writeFileSync(ruleset, 'extends: [[spectral:oas, recommended]]\n');
  const results: SpectralComparison[] = [];
  const queue = batches(specs);
  const worker = async () => {
    for (let batch = queue.shift(); batch; batch = queue.shift()) {
      for (const comparison of await compareBatch(corpusDir, batch, ruleset)) {
        options.onComparison(comparison);
        results.push(comparison);
      }
    }
  };
  try {
    await Promise.all([worker(), worker()]);
  } finally {
    fs.rmSync(path.dirname(ruleset), { recursive: true, force: true });
  }
  return results;
}
