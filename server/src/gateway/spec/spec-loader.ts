import { SpecWorkerPool } from './spec-worker-pool.js';
import { type CompiledSpec } from '../model/spec-types.js';
import { defaultSpecLimits, type SpecLimits } from '../../core/settings.js';

/** The pools of spec workers, one per heap bound (the bound is fixed when a worker starts). */
const pools = new Map<number, SpecWorkerPool>();

/** The shared pool of workers for specs loaded within `limits`. */
export function specWorkerPool(limits: SpecLimits): SpecWorkerPool {
  let pool = pools.get(limits.maxHeapMb);
  if (!pool) {
    pool = new SpecWorkerPool(limits.maxHeapMb, limits.workerIdleMs);
    pools.set(limits.maxHeapMb, pool);
  }
  return pool;
}

/**
 * Loads and compiles one spec file in a worker thread, bounded in time and memory: a reference bomb,
 * a YAML bomb or a huge file ends the worker with a {@link LoadError}, never the server.
 */
export function loadSpec(
  file: string,
  specsDir: string,
  limits: SpecLimits = defaultSpecLimits,
): Promise<CompiledSpec> {
  return specWorkerPool(limits).compile(file, specsDir, limits);
}
