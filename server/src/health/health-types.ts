import type { HealthStatus } from '../contract/index.js';

/** Every health status, worst first: the aggregate of a node is the worst status among its children. */
export const statusOrder = ['DOWN', 'OUT_OF_SERVICE', 'UP', 'UNKNOWN'] as const satisfies readonly HealthStatus[];
// A status the contract adds must be ranked above, or this line does not compile.
const _everyStatusRanked: HealthStatus extends (typeof statusOrder)[number] ? true : never = true;

/** The outcome of one check: a status and details safe to show (never secrets). */
export interface CheckResult {
  status: HealthStatus;
  details?: Record<string, unknown>;
}

/** A check: resolves with details when healthy, throws (or resolves a non-UP result) when not. */
export type Check = (signal: AbortSignal) => Promise<CheckResult | Record<string, unknown> | void>;

/** A component of the health tree: a check, or a group of components. */
export interface Contributor {
  check?: Check;
  /** Time the check may take before it counts as DOWN. */
  timeoutMs?: number;
  components?: Record<string, Contributor>;
}

export const healthGroups = ['api', 'liveness', 'readiness'];
export const defaultCheckTimeoutMs = 2000;
