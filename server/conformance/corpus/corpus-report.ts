import { defaultSpecLimits } from '../../src/core/settings.js';
import type { SpecResult } from './corpus-protocol.js';
import type { CorpusSpec } from './manifest.js';

/** A spec that did not produce a result: the child hung on it or died. */
export interface CorpusFinding {
  file: string;
  category: string;
  outcome: 'hang' | 'crash';
  ms: number;
  reason: string;
}

type Result = SpecResult | CorpusFinding;

/** Categories whose every entry spec is a usable document and has to load. */
const mustLoad = new Set(['realworld', 'examples', 'fixtures']);

const isSpecResult = (result: Result): result is SpecResult =>
  result.outcome === 'loaded' || result.outcome === 'rejected';

function servedText(result: SpecResult): string {
  const served = result.served;
  if (!served) return '';
  if ('status' in served) {
    const notServed =
      served.routesNotServed.length > 0
        ? ` (${served.routesNotServed.length} route(s) not served: ${served.routesNotServed[0].slice(0, 200)})`
        : '';
    return `; ${served.request} -> ${served.status}${notServed}`;
  }
  if ('skipped' in served) return `; not served (${served.skipped})`;
  return `; SERVE ERROR ${served.error}`;
}

/** One line for one spec: outcome, time, file, and what was found. */
export function formatResult(result: Result): string {
  const head = `${result.outcome.toUpperCase().padEnd(8)} ${String(result.ms).padStart(6)} ms  ${result.file}`;
  if (!isSpecResult(result)) return `${head}  ${result.reason}`;
  const outside =
    result.guardEvents.length > 0
      ? `; OUTSIDE ACCESS ` +
        result.guardEvents.map((e) => `${e.kind} ${e.target} via ${e.via}${e.blocked ? ' (refused)' : ''}`).join(', ')
      : '';
  const escaped = result.bundledOutside.length > 0 ? `; ESCAPED REF ${result.bundledOutside.join(', ')}` : '';
  if (result.outcome === 'rejected') return `${head}  ${result.reason}${outside}`;
  return (
    `${head}  ${result.operations} operations, ${result.warnings} ` +
    `warnings${servedText(result)}${outside}${escaped}`
  );
}

interface CategoryStats {
  specs: number;
  loaded: number;
  rejected: number;
  hang: number;
  crash: number;
  maxMs: number;
  maxFile: string;
  served: Record<string, number>;
}

function statusClass(result: SpecResult): string | undefined {
  const served = result.served;
  if (!served) return undefined;
  if ('status' in served) return `${String(served.status)[0]}xx`;
  return 'skipped' in served ? 'skipped' : 'error';
}

/**
 * Prints the per-category summary and every finding that breaks an expectation: a usable spec that
 * was rejected, a pathological one loaded beyond the time bound, a served request that failed, and
 * the safety findings. Returns true when no safety property broke (no hang, crash, refused read,
 * network attempt or escaped reference).
 */
export function printCorpusReport(entries: CorpusSpec[], results: Result[], elapsedMs: number): boolean {
  const stats = new Map<string, CategoryStats>();
  const expectations: string[] = [];
  const safety: string[] = [];
  const probes: string[] = [];
  entries.forEach((entry, index) => {
    const result = results[index];
    const category = stats.get(entry.category) ?? {
      specs: 0,
      loaded: 0,
      rejected: 0,
      hang: 0,
      crash: 0,
      maxMs: 0,
      maxFile: '',
      served: {},
    };
    stats.set(entry.category, category);
    category.specs++;
    if (!result) {
      safety.push(`no result for ${entry.file}`);
      return;
    }
    category[result.outcome]++;
    if (result.ms > category.maxMs) {
      category.maxMs = result.ms;
      category.maxFile = entry.file;
    }
    if (!isSpecResult(result)) {
      safety.push(`${result.outcome}: ${entry.file}: ${result.reason}`);
      return;
    }
    const served = statusClass(result);
    if (served) category.served[served] = (category.served[served] ?? 0) + 1;
    if (served === '5xx' || served === 'error') expectations.push(`served badly: ${entry.file}${servedText(result)}`);
    if (mustLoad.has(entry.category) && result.outcome === 'rejected')
      expectations.push(`expected to load: ${entry.file}: ${result.reason}`);
    if (result.outcome === 'loaded' && result.ms > defaultSpecLimits.timeoutMs)
      expectations.push(`loaded beyond the ${defaultSpecLimits.timeoutMs} ms bound: ${entry.file} (${result.ms} ms)`);
    for (const event of result.guardEvents) {
      const line = `${entry.file}: ${event.kind} ${event.target} via ${event.via}`;
      if (event.blocked) safety.push(`refused ${line}`);
      else probes.push(line);
    }
    for (const key of result.bundledOutside) safety.push(`escaped $ref: ${entry.file} bundled ${key}`);
  });

  console.log('\ncategory       specs  loaded  rejected  hang  crash  max ms  served (one GET per loaded spec)');
  for (const [name, s] of [...stats].sort()) {
    const served = Object.entries(s.served)
      .sort()
      .map(([k, v]) => `${k}:${v}`)
      .join(' ');
    console.log(
      `${name.padEnd(14)} ${String(s.specs).padStart(5)}  ${String(s.loaded).padStart(6)}  ` +
        (`${String(s.rejected).padStart(8)}  ${String(s.hang).padStart(4)}  ${String(s.crash).padStart(5)}  ` +
          `${String(s.maxMs).padStart(6)}  ${served}`),
    );
    console.log(`${''.padEnd(14)} slowest: ${s.maxFile}`);
  }
  if (expectations.length > 0)
    console.log(`\nexpectations not met (${expectations.length}):\n  ${expectations.join('\n  ')}`);
  if (probes.length > 0)
    console.log(
      `\npaths outside the specs folder checked (stat/realpath, not read) (${probes.length}):\n  ` +
        `${probes.join('\n  ')}`,
    );
  console.log(
    safety.length > 0
      ? `\nSAFETY FINDINGS (${safety.length}):\n  ${safety.join('\n  ')}`
      : '\nsafety: no hang, no crash, no file read outside a spec folder, no network attempt, no escaped $ref',
  );
  console.log(`\ncorpus: ${entries.length} entry specs in ${Math.round(elapsedMs / 1000)} s`);
  return safety.length === 0;
}
