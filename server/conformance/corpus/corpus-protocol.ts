import type { GuardEvent } from './access-guard.js';
import type { CorpusSpec } from './manifest.js';

/** What happened when the gateway served one GET of a loaded spec. */
export type ServeProbe =
  { request: string; status: number; routesNotServed: string[] } | { skipped: string } | { error: string };

/** The outcome of loading one entry spec. */
export interface SpecResult {
  file: string;
  category: string;
  outcome: 'loaded' | 'rejected';
  ms: number;
  /** The loader's message, for a rejected spec. */
  reason?: string;
  operations?: number;
  warnings?: number;
  /** Accesses outside the spec's folder seen by the guard while loading (reads and network are refused). */
  guardEvents: GuardEvent[];
  /** Bundled documents whose path lies outside the spec's folder (an escaped `$ref`). */
  bundledOutside: string[];
  served?: ServeProbe;
}

/** Parent -> child: load `entries` from `start` on. */
export interface RunMessage {
  type: 'run';
  corpusDir: string;
  entries: CorpusSpec[];
  start: number;
}

/** Child -> parent. */
export type ChildMessage =
  { type: 'start'; index: number } | { type: 'result'; index: number; result: SpecResult } | { type: 'done' };
