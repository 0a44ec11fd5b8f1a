import autocannon from 'autocannon';

function summary(result) {
  return {
    requestsPerSec: result.requests.average,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/**
 * Runs autocannon against `url` for `durationSec` and returns the numbers the benchmarks print.
 * With `server` (from startServer) it adds the server's CPU time per request (user + system, µs):
 * unlike requests/s it hardly depends on what else the machine is doing.
 */
export async function measure(url, { connections, durationSec }, server) {
  const before = await server?.cpuUsage();
  const result = summary(await autocannon({ url, connections, duration: durationSec, pipelining: 1 }));
  if (server) {
    const after = await server.cpuUsage();
    result.cpuUsPerRequest = (after.user - before.user + after.system - before.system) / Math.max(1, result.total);
  }
  return result;
}

/**
 * Keeps `connections` busy on `url` until `work()` has finished (then one more second), and returns
 * the load numbers with `work()`'s result. For measuring something that happens under load.
 */
export async function measureWhile(url, { connections }, work) {
  const instance = autocannon({ url, connections, duration: 3600, pipelining: 1 });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  let outcome;
  try {
    outcome = await work();
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    instance.stop();
  }
  return { load: summary(await instance), outcome };
}

/**
 * Measures `targets` ({label, url, server, runs: []}) the fair way: a warm-up of each, then `rounds`
 * rounds taking each in turn, so drift of the machine's load touches all alike. Each result is
 * pushed to its target's `runs` and passed to `print(label, result)`.
 */
export async function measureAlternately(targets, { connections, durationSec, warmupSec, rounds }, print) {
  for (const target of targets) await measure(target.url, { connections, durationSec: warmupSec });
  for (let round = 1; round <= rounds; round++) {
    for (const target of targets) {
      const result = await measure(target.url, { connections, durationSec }, target.server);
      target.runs.push(result);
      print(`${target.label} #${round}`, result);
    }
  }
}

export const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** `12345.6` -> `12,346`. */
export const formatCount = (value) => Math.round(value).toLocaleString('en-US');
