import { printRdfReport } from './rdf-report.js';
import { runR2rmlSuite } from './r2rml-runner.js';
import { runSparqlSuite } from './sparql-runner.js';

/** `conformance r2rml|sparql <dir>`: prints each failing case and passed/total (per tier); exit code 0 (it measures).
 * */
export async function runRdfCommand(command: 'r2rml' | 'sparql', dir: string, only?: string): Promise<number> {
  if (command === 'r2rml') {
    const outcomes = await runR2rmlSuite(dir, {
      only,
      onOutcome: (o) => !o.passed && console.log(`FAIL ${o.id}: ${o.detail}`),
    });
    printRdfReport(
      'R2RML',
      new Map([['', { passed: outcomes.filter((o) => o.passed).length, total: outcomes.length }]]),
    );
    return 0;
  }
  const outcomes = await runSparqlSuite(dir, {
    only,
    onOutcome: (o) => !o.passed && console.log(`FAIL [${o.tier}] ${o.name}: ${o.detail}`),
  });
  const tiers = new Map<string, { passed: number; total: number }>();
  for (const o of outcomes) {
    const tier = tiers.get(o.tier) ?? { passed: 0, total: 0 };
    tier.total++;
    if (o.passed) tier.passed++;
    tiers.set(o.tier, tier);
  }
  printRdfReport('SPARQL', new Map([...tiers].sort()));
  return 0;
}
