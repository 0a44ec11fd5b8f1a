/** Wire shapes of `/api/health` (Spring Boot Actuator style). */

/** Health statuses, worst first: a group's status is the worst among its components. */
export type HealthStatus = 'DOWN' | 'OUT_OF_SERVICE' | 'UP' | 'UNKNOWN';

/**
 * `GET /api/health`, `/api/health/{component}` and `/api/health/{component}/{sub}`: one node of the
 * tree (answered 503 when DOWN or OUT_OF_SERVICE). Without the right to see details, only `status`
 * (and `groups`) are sent.
 */
export interface HealthNode {
  status: HealthStatus;
  components?: Record<string, HealthNode>;
  /** What the check found, safe to show (never secrets): `latency_ms`, `error`, a source's type, ... */
  details?: Record<string, unknown>;
  /** At the top level and on a component: the probe groups (`api`, `liveness`, `readiness`). */
  groups?: string[];
}
