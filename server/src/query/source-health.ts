import type { SourceType } from './connectors/types.js';
import { Deadline } from './deadline.js';
import type { QuerySetup } from './sources.js';

/** A query source as the health component sees it: what it is, and a check to run on demand. */
export interface SourceHealth {
  name: string;
  type: SourceType;
  description: string;
  /** Resolves with details safe to show (never settings or secrets); throws when the source does not answer. */
  check(signal: AbortSignal): Promise<Record<string, unknown>>;
}

/**
 * The sources of `setup` (sources.yaml), each with a `check()` that opens a connector,
 * asks the source (tables listed, streams and buckets reachable) and closes it again, so health checks
 * never share connections with queries. Every wait of the check ends when `signal` aborts (the health
 * check's own timeout), and the connection is destroyed then.
 */
export function querySourceHealth(setup: QuerySetup): SourceHealth[] {
  return setup.sources.map((definition) => ({
    name: definition.name,
    type: definition.type,
    description: definition.description,
    check: async (signal: AbortSignal) => {
      const connector = definition.connect();
      try {
        return { connector: definition.connector, ...(await connector.check(Deadline.of(signal))) };
      } finally {
        await connector.close();
      }
    },
  }));
}
