import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { defaultSpecLimits } from '../../core/settings.js';
import { readSpecText } from '../spec/spec-source.js';
import { loadRuleset, SpectralLinter } from './spectral-linter.js';
import type { LintJob, LintReply } from './lint-pool.js';

type Job = LintJob & { id: number };

/** The linter of the last ruleset file seen, kept while that file's modification time stays the same. */
let cached: { key: string; linter: Promise<SpectralLinter> } | undefined;

async function linterFor(job: Job): Promise<SpectralLinter> {
  const mtime = job.rulesetFile ? (await fs.stat(job.rulesetFile)).mtimeMs : 0;
  const key = `${job.rulesetFile ?? ''}\0${mtime}\0${job.root}`;
  if (cached?.key !== key) {
    const linter = loadRuleset(job.rulesetFile).then((ruleset) => new SpectralLinter(ruleset, job.root));
    cached = { key, linter };
    // A ruleset that fails to load is tried again on the next job, after the user fixed it.
    linter.catch(() => (cached = undefined));
  }
  return cached.linter;
}

async function reply(job: Job): Promise<LintReply> {
  try {
    const linter = await linterFor(job);
    // Decoded as the spec was loaded (UTF-8, or UTF-16 by its byte order mark), within the same size bound.
    const text = job.text ?? readSpecText(job.file, path.basename(job.file), defaultSpecLimits);
    return { id: job.id, ok: true, value: await linter.lint(job.file, text) };
  } catch (error) {
    const message = error instanceof RangeError ? 'document is nested too deeply to lint' : (error as Error).message;
    return { id: job.id, ok: false, message };
  }
}

/** Worker entry: lints the files it is sent, one at a time, and posts the findings of each back. */
parentPort!.on('message', (job: Job) => void reply(job).then((answer) => parentPort!.postMessage(answer)));
