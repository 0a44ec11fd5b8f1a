import type { HealthNode, HealthStatus } from '../contract/index.js';
import { defaultCheckTimeoutMs, statusOrder, type CheckResult, type Contributor } from './health-types.js';

/** The worst of `statuses` (DOWN > OUT_OF_SERVICE > UP > UNKNOWN); UNKNOWN when there are none. */
export function worstStatus(statuses: HealthStatus[]): HealthStatus {
  let worst = statusOrder.length - 1;
  for (const status of statuses) worst = Math.min(worst, statusOrder.indexOf(status));
  return statusOrder[worst];
}

/** The HTTP status of a health answer: 503 for DOWN and OUT_OF_SERVICE, else 200. */
export function httpStatusOf(status: HealthStatus): number {
  return status === 'DOWN' || status === 'OUT_OF_SERVICE' ? 503 : 200;
}

function isCheckResult(value: unknown): value is CheckResult {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as CheckResult).status === 'string' &&
    statusOrder.includes((value as CheckResult).status)
  );
}

/** Runs one check under its own timeout; a check that throws or does not answer in time is DOWN. */
async function runCheck(contributor: Contributor): Promise<HealthNode> {
  const timeoutMs = contributor.timeoutMs ?? defaultCheckTimeoutMs;
  const controller = new AbortController();
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const outcome = await Promise.race([contributor.check!(controller.signal), timeout]);
    const latency_ms = Math.round(performance.now() - started);
    if (isCheckResult(outcome)) return { status: outcome.status, details: { ...outcome.details, latency_ms } };
    return { status: 'UP', details: { ...(outcome ?? {}), latency_ms } };
  } catch (error) {
    return {
      status: 'DOWN',
      details: { error: (error as Error).message, latency_ms: Math.round(performance.now() - started) },
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Evaluates a contributor tree: every check runs at once, each under its own timeout, so one hung
 * component costs its timeout and the others still report. A group's status is its worst child's.
 */
export async function evaluate(contributor: Contributor): Promise<HealthNode> {
  if (contributor.check) return runCheck(contributor);
  const entries = Object.entries(contributor.components ?? {});
  const nodes = await Promise.all(entries.map(([, child]) => evaluate(child)));
  const components: Record<string, HealthNode> = {};
  entries.forEach(([name], i) => (components[name] = nodes[i]));
  return { status: worstStatus(nodes.map((n) => n.status)), components };
}
