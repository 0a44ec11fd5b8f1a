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

/** One printed line of a measurement: requests/s, p99, the server's CPU per request (when measured), failures. */
export const row = (label, m, width = 30) =>
  `  ${label.padEnd(width)} ${formatCount(m.requestsPerSec).padStart(9)} req/s` +
  `   p99 ${String(m.p99Ms).padStart(4)} ms` +
  `   server CPU ${m.cpuUsPerRequest === undefined ? '  n/a' : m.cpuUsPerRequest.toFixed(1).padStart(5)} µs/req` +
  `   non-2xx ${m.non2xx}   errors ${m.errors}`;

/**
 * Measures each pair's subject and baseline alternately ({@link measureAlternately}; a target in several pairs
 * is measured once a round) and prints each pair's ratio: the median of the per-round ratios (runs measured side
 * by side; the median is what drift touches least), with its target when it has one, and the ratio by server CPU
 * per request when both servers report it. Returns `{label, ratio}` per pair.
 */
export async function comparePairs(pairs, { connections, durationSec, warmupSec, rounds }) {
  const targets = [...new Set(pairs.flatMap((pair) => [pair.subject, pair.baseline]))];
  for (const target of targets) target.runs = [];
  await measureAlternately(targets, { connections, durationSec, warmupSec, rounds }, (label, result) =>
    console.log(row(label, result)),
  );
  const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
  const perRound = (subject, baseline, field) =>
    subject.runs.map((run, round) => run[field] / baseline.runs[round][field]);
  return pairs.map(({ subject, baseline, target }) => {
    const ratios = perRound(subject, baseline, 'requestsPerSec');
    const ratio = median(ratios);
    const cpu = median(perRound(baseline, subject, 'cpuUsPerRequest'));
    console.log(
      `  ${subject.label} / ${baseline.label}: ${ratio.toFixed(2)}x requests/s, median of ${ratios.length} rounds ` +
        `(${ratios.map((r) => r.toFixed(2)).join(', ')}` +
        `${target === undefined ? '' : `; target ${target}x or better`})` +
        (Number.isFinite(cpu) ? `, ${cpu.toFixed(2)}x by server CPU per request` : ''),
    );
    return { label: `${subject.label} / ${baseline.label}`, ratio };
  });
}
