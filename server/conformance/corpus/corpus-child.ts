/**
 * The corpus runner's child process (started with the access guard preloaded): loads the entry
 * specs it is given one by one, in the gateway's own bounded loader, and reports each result to
 * the parent, which watches for hangs and crashes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadSpec } from '../../src/gateway/spec/spec-loader.js';
import { bundledKey, isInside } from '../../src/gateway/spec/spec-bundle.js';
import type { GuardEvent } from './access-guard.js';
import type { ChildMessage, RunMessage, SpecResult } from './corpus-protocol.js';
import type { CorpusSpec } from './manifest.js';
import { serveOneGet } from './serve-probe.js';

const send = (message: ChildMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

/** Reads the guard events appended since the last call. */
function guardReader(logFile: string): () => GuardEvent[] {
  let offset = 0;
  return () => {
    const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
    const fresh = text.slice(offset);
    offset = text.length;
    return fresh
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as GuardEvent);
  };
}

async function loadOne(corpusDir: string, entry: CorpusSpec, readEvents: () => GuardEvent[]): Promise<SpecResult> {
  const specsDir = fs.realpathSync(path.join(corpusDir, entry.specsRoot));
  const file = path.join(corpusDir, entry.file);
  // Workers copy the environment when they start: this is the folder the guard allows for this load.
  process.env.CORPUS_GUARD_ROOT = specsDir;
  readEvents();
  const started = performance.now();
  try {
    const spec = await loadSpec(file, specsDir);
    const ms = Math.round(performance.now() - started);
    const guardEvents = readEvents();
    const bundled = spec.document[bundledKey];
    const bundledOutside =
      bundled && typeof bundled === 'object'
        ? Object.keys(bundled).filter((key) => !isInside(specsDir, path.resolve(specsDir, key)))
        : [];
    const served = await serveOneGet(
      spec.document,
      path.basename(entry.file).replace(/\.(ya?ml|json)$/i, ''),
      (dir) => {
        process.env.CORPUS_GUARD_ROOT = dir;
      },
    ).catch((error: Error) => ({ error: error.message }));
    guardEvents.push(...readEvents());
    return {
      file: entry.file,
      category: entry.category,
      outcome: 'loaded',
      ms,
      operations: spec.operations.length,
      warnings: spec.warnings.length,
      guardEvents,
      bundledOutside,
      served,
    };
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    return {
      file: entry.file,
      category: entry.category,
      outcome: 'rejected',
      ms,
      reason: (error as Error).message,
      guardEvents: readEvents(),
      bundledOutside: [],
    };
  }
}

process.once('message', async (message: RunMessage) => {
  const readEvents = guardReader(process.env.CORPUS_GUARD_LOG!);
  for (let index = message.start; index < message.entries.length; index++) {
    await send({ type: 'start', index });
    const result = await loadOne(message.corpusDir, message.entries[index], readEvents);
    await send({ type: 'result', index, result });
  }
  await send({ type: 'done' });
  process.disconnect();
});
