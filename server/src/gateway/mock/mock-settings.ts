import { resolvePointer } from '../model/json-pointer.js';
import { isObject } from '../../core/json.js';
import type { ExampleMode, WorkspaceMockSettings } from '../../core/settings.js';

/** The mock behaviour of one generated route: workspace setting, then the spec's `x-mock`, then the operation's. */
export interface MockSettings {
  examples: ExampleMode;
  /** Added latency in ms: `[min, max]` (equal for a fixed delay); absent: none. */
  delay?: [number, number];
  /** Share of requests (0 to 1) answered with `errorStatus` instead. */
  errorRate: number;
  errorStatus: number;
}

type Json = Record<string, unknown>;
const isDelay = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** Applies one `x-mock` object over `settings`; each value it cannot use is a warning, not a load error. */
function applyExtension(
  settings: MockSettings,
  raw: unknown,
  where: string,
  maxDelayMs: number,
  warnings: string[],
): MockSettings {
  if (raw === undefined) return settings;
  if (!isObject(raw)) {
    warnings.push(`${where}: x-mock must be an object; ignored`);
    return settings;
  }
  const next = { ...settings };
  if (raw.examples !== undefined) {
    if (raw.examples === 'static' || raw.examples === 'dynamic') next.examples = raw.examples;
    else warnings.push(`${where}: x-mock.examples must be "static" or "dynamic"; ignored`);
  }
  if (raw.delay !== undefined) {
    const range = Array.isArray(raw.delay) ? raw.delay : [raw.delay, raw.delay];
    if (range.length === 2 && isDelay(range[0]) && isDelay(range[1]) && range[0] <= range[1]) {
      if (range[1] > maxDelayMs)
        warnings.push(`${where}: x-mock.delay is capped at MOCK_MAX_DELAY_MS (${maxDelayMs} ms)`);
      next.delay = [Math.min(range[0], maxDelayMs), Math.min(range[1], maxDelayMs)];
    } else warnings.push(`${where}: x-mock.delay must be milliseconds or [min, max] milliseconds; ignored`);
  }
  if (raw.errorRate !== undefined) {
    if (typeof raw.errorRate === 'number' && raw.errorRate >= 0 && raw.errorRate <= 1) next.errorRate = raw.errorRate;
    else warnings.push(`${where}: x-mock.errorRate must be a number from 0 to 1; ignored`);
  }
  if (raw.errorStatus !== undefined) {
    if (
      typeof raw.errorStatus === 'number' &&
      Number.isInteger(raw.errorStatus) &&
      raw.errorStatus >= 400 &&
      raw.errorStatus <= 599
    )
      next.errorStatus = raw.errorStatus;
    else warnings.push(`${where}: x-mock.errorStatus must be a status from 400 to 599; ignored`);
  }
  return next;
}

/**
 * The mock settings of the operation at `operationPointer`: the workspace's, overridden by the spec's
 * root `x-mock`, overridden by the operation's own `x-mock`. Bad values are reported in `warnings`.
 */
export function mockSettingsOf(
  document: Json,
  operationPointer: string,
  workspace: WorkspaceMockSettings,
  warnings: string[],
  label: string,
): MockSettings {
  const base: MockSettings = { examples: workspace.examples, errorRate: 0, errorStatus: 500 };
  const spec = applyExtension(base, document['x-mock'], 'x-mock', workspace.maxDelayMs, warnings);
  const operation = resolvePointer(document, operationPointer);
  return applyExtension(
    spec,
    isObject(operation) ? operation['x-mock'] : undefined,
    label,
    workspace.maxDelayMs,
    warnings,
  );
}

/** True when no request is delayed or answered with an injected error. */
export function withoutFaults(settings: MockSettings): boolean {
  return settings.delay === undefined && settings.errorRate === 0;
}

/** True when every request is answered the same way unless it says otherwise: static examples, no faults. */
export function isPlain(settings: MockSettings): boolean {
  return settings.examples === 'static' && withoutFaults(settings);
}
