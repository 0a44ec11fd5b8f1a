import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registry } from './metrics.js';
import './job-metrics.js';
import { requestHistogram } from './request-histogram.js';

const doc = fs.readFileSync(path.join(import.meta.dirname, '../../../docs/operations.md'), 'utf8');

/** prom-client's default metrics, which the doc names by their prefixes `nodejs_*` and `process_*`. */
const isDefault = (name: string) => name.startsWith('nodejs_') || name.startsWith('process_');

describe('docs/operations.md', () => {
  it('lists every metric the server registers, each with its labels on its line', async () => {
    requestHistogram();
    const metrics = (await registry.getMetricsAsJSON()).filter((m) => !isDefault(m.name));
    expect(metrics.length).toBeGreaterThan(25);
    const missing: string[] = [];
    for (const { name } of metrics) {
      const line = doc.split('\n').find((l) => l.startsWith('|') && l.includes(`\`${name}\``));
      if (line === undefined) {
        missing.push(name);
        continue;
      }
      const labels = (registry.getSingleMetric(name) as unknown as { labelNames: string[] }).labelNames;
      for (const label of labels) if (!line.includes(`\`${label}\``)) missing.push(`${name}: label ${label}`);
    }
    expect(missing).toEqual([]);
  });
});
