import { serverSpecLimits } from '../core/settings.js';
import { specWorkerPool } from './spec/spec-loader.js';

/**
 * The gateway's second entry, for the command alone: what may start before the gateway's own modules load, so that
 * it runs on another core meanwhile. Imports nothing heavy (the rest of the gateway comes through `index.ts`).
 */
export function prestartSpecWorker(maxHeapMb: number, workbench: boolean): void {
  specWorkerPool(serverSpecLimits(maxHeapMb, workbench)).prestart();
}
