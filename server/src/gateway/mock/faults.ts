import { setTimeout as sleep } from 'node:timers/promises';
import { httpError, httpErrorWithStatus, type HttpError } from '../../core/errors.js';
import type { Preference } from './example-responder.js';
import type { MockSettings } from './mock-settings.js';

/** The response header that tells a client (and the workbench's requests panel) which fault was injected. */
export const faultHeader = 'x-mock-fault';

/** The faults chosen for one request: a delay and/or an error status. */
export interface PlannedFault {
  delayMs: number;
  errorStatus?: number;
}

/**
 * Chooses this request's faults: `Prefer: delay=` (refused with a 400 above `maxDelayMs`) or the
 * route's configured delay (fixed, or uniform in its range), and an error with probability
 * `errorRate`. `random` is injectable for tests.
 */
export function planFault(
  settings: MockSettings,
  preference: Preference,
  maxDelayMs: number,
  random: () => number = Math.random,
): PlannedFault {
  if (preference.delay !== undefined && preference.delay > maxDelayMs) {
    throw httpError('PREFER_INVALID', ['delay', preference.delay, `at most MOCK_MAX_DELAY_MS (${maxDelayMs} ms)`]);
  }
  let delayMs = preference.delay ?? 0;
  if (preference.delay === undefined && settings.delay) {
    const [min, max] = settings.delay;
    delayMs = min + Math.floor(random() * (max - min + 1));
  }
  const fault: PlannedFault = { delayMs };
  if (settings.errorRate > 0 && random() < settings.errorRate) fault.errorStatus = settings.errorStatus;
  return fault;
}

/** The `x-mock-fault` header value of a fault (`delay=120ms, error=503`), or `undefined` for none. */
export function describeFault(fault: PlannedFault): string | undefined {
  const parts = [];
  if (fault.delayMs > 0) parts.push(`delay=${fault.delayMs}ms`);
  if (fault.errorStatus !== undefined) parts.push(`error=${fault.errorStatus}`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** Waits out a planned delay; other requests are served meanwhile. */
export async function delayFor(fault: PlannedFault): Promise<void> {
  if (fault.delayMs > 0) await sleep(fault.delayMs);
}

/** The error of an injected fault (with its planned status) when the spec declares no response for its status. */
export function injectedError(status: number, reason: string): HttpError {
  return httpErrorWithStatus('INJECTED_FAULT', status, [reason]);
}
