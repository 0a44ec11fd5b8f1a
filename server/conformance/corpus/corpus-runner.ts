import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultSpecLimits } from '../../src/core/settings.js';
import type { ChildMessage, RunMessage, SpecResult } from './corpus-protocol.js';
import { formatResult, printCorpusReport, type CorpusFinding } from './corpus-report.js';
import { readCorpusManifest, type CorpusSpec } from './manifest.js';

const moduleDir = path.dirname(fileURLToPath(import.meta.url));

/** The folder holding package.json above this module: the runtime reads its own code from there. */
function installationRoot(): string {
  for (let dir = moduleDir; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

/**
 * The folders the runtime reads code from: the installation, and every `node_modules` folder Node
 * searches from here (in an npm workspace the dependencies are hoisted above the server package).
 */
function runtimeFolders(): string[] {
  const searched = createRequire(import.meta.url).resolve.paths('openapi-sampler') ?? [];
  return [installationRoot(), ...searched.filter((dir) => fs.existsSync(dir))];
}

/**
 * How long one spec may take before the run calls it a hang: the loader's own time bound for the
 * load and again for the serve probe's reload, plus slack for starting workers on a busy machine.
 */
export const hangBudgetMs = 2 * defaultSpecLimits.timeoutMs + 15_000;

/**
 * Loads every entry spec of an OpenAPI corpus (`MANIFEST.tsv`, role `spec`) with the gateway's
 * loader, each with its `<category>/<source-slug>` folder as the specs directory, in a child
 * process with the access guard preloaded. A spec that takes longer than {@link hangBudgetMs} is
 * a hang (the child is killed and the run continues after it); a child that dies is a crash.
 * Prints one line per spec and a summary; returns false when a safety property broke (hang,
 * crash, a read outside the spec's folder, a network attempt, a bundled file outside the folder).
 */
export async function runCorpus(corpusDir: string, options: { only?: string } = {}): Promise<boolean> {
  const entries = readCorpusManifest(corpusDir).filter((e) => !options.only || e.file.includes(options.only));
  const results: Array<SpecResult | CorpusFinding> = [];
  const guardLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-guard-')), 'events.jsonl');
  const guardModule = new URL('./access-guard.js', import.meta.url).href;
  const childModule = fileURLToPath(new URL('./corpus-child.js', import.meta.url));
  const started = Date.now();
  let start = 0;
  try {
    while (start < entries.length) {
      start = await runChild({
        childModule,
        guardModule,
        guardLog,
        corpusDir,
        entries,
        start,
        onResult: (index, result) => {
          results[index] = result;
          console.log(formatResult(result));
        },
      });
    }
  } finally {
    fs.rmSync(path.dirname(guardLog), { recursive: true, force: true });
  }
  return printCorpusReport(entries, results, Date.now() - started);
}

interface ChildRun {
  childModule: string;
  guardModule: string;
  guardLog: string;
  corpusDir: string;
  entries: CorpusSpec[];
  start: number;
  onResult(index: number, result: SpecResult | CorpusFinding): void;
}

/** Runs one child from `start`; resolves with the index to continue from (entries.length when done). */
function runChild(run: ChildRun): Promise<number> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = fork(run.childModule, [], {
      execArgv: ['--import', run.guardModule],
      env: {
        ...process.env,
        CORPUS_GUARD_LOG: run.guardLog,
        CORPUS_GUARD_ALLOW: runtimeFolders().join(path.delimiter),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let current = -1;
    let next = run.start;
    let currentStarted = 0;
    let finished = false;
    let watchdog: NodeJS.Timeout | undefined;
    const finish = (next: number) => {
      if (finished) return;
      finished = true;
      clearTimeout(watchdog);
      resolve(next);
    };
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'start') {
        current = message.index;
        currentStarted = Date.now();
        clearTimeout(watchdog);
        watchdog = setTimeout(() => {
          const entry = run.entries[current];
          run.onResult(current, {
            file: entry.file,
            category: entry.category,
            outcome: 'hang',
            ms: Date.now() - currentStarted,
            reason: `no result within ${hangBudgetMs} ms; child killed`,
          });
          child.kill('SIGKILL');
          finish(current + 1);
        }, hangBudgetMs);
      } else if (message.type === 'result') {
        clearTimeout(watchdog);
        run.onResult(message.index, message.result);
        current = -1;
        next = message.index + 1;
      } else {
        finish(run.entries.length);
      }
    });
    child.on('exit', (code, signal) => {
      if (finished) return;
      if (current === -1) {
        // Died between specs: go on after the last result, unless it never got going at all.
        if (next === run.start)
          reject(
            new Error(`the corpus child process exited (${signal ?? `exit code ${code}`}) before loading anything`),
          );
        return finish(next);
      }
      const entry = run.entries[current];
      run.onResult(current, {
        file: entry.file,
        category: entry.category,
        outcome: 'crash',
        ms: Date.now() - currentStarted,
        reason: `the process died (${signal ?? `exit code ${code}`})`,
      });
      finish(current + 1);
    });
    const message: RunMessage = { type: 'run', corpusDir: run.corpusDir, entries: run.entries, start: run.start };
    child.send(message);
  });
}
