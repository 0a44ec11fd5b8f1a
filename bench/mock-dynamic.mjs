// Mock benchmarks (issue 20): the generated route answering dynamic examples (MOCK_EXAMPLES=dynamic:
// a value generated and checked against the schema per request) against bare Fastify answering one
// such value, in the same run. Prints ratios; asserts nothing.
import { specWorkspace, throughput } from './gateway.mjs';

/** Runs the dynamic-example benchmark with the given load settings; returns its numbers. */
export async function run({ connections = 50, durationSec = 10, warmupSec = 3, rounds = 2 } = {}) {
  const workspace = specWorkspace();
  try {
    return await throughput({
      connections,
      durationSec,
      warmupSec,
      rounds,
      workspace,
      env: { MOCK_EXAMPLES: 'dynamic' },
      label: 'gateway (dynamic examples)',
      target: 0.5,
    });
  } finally {
    workspace.remove();
  }
}
