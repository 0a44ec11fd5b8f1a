/**
 * Conformance runners: measure the gateway against external suites (never copied into the repo).
 *
 *   npm run conformance -- prism  <prism-harness folder>   [--only <substring>]
 *   npm run conformance -- corpus <openapi-corpus folder>  [--only <substring>]
 *   npm run conformance -- nl     <nl2sql folder>          [--only <set/db substring>] (execution accuracy of
 * natural-language questions)
 *   npm run conformance -- r2rml  <rdf/r2rml folder>       [--only <test id substring>] (R2RML cases through the
 * SPARQL endpoint's translator)
 *   npm run conformance -- spectral <openapi-corpus folder> [--only <substring>] (the workbench's lint findings
 * against Spectral's own CLI, same ruleset, file by file)
 *
 * Both print one line per finding and a summary, and exit 0 whatever the pass rate: they measure.
 * A non-zero exit means the runner itself failed (bad arguments, unreadable suite) or, for the
 * corpus, that a safety property broke (a hang, a crash, a read outside the specs folder).
 */
import path from 'node:path';
import { runCorpus } from './corpus/corpus-runner.js';
import { printNlReport, runNlSuite } from './nl/nl-runner.js';
import { printPrismReport } from './prism/prism-report.js';
import { runRdfCommand } from './rdf/rdf-cli.js';
import { runPrismSuite } from './prism/prism-runner.js';
import { runSpectralComparison } from './spectral/spectral-compare.js';

const usage =
  'usage: conformance prism <prism-harness dir> [--only <substring>] | conformance corpus <openapi-corpus dir> ' +
  ('[--only <substring>] | conformance nl <nl2sql dir> [--only <substring>] | conformance r2rml|sparql <rdf ' +
    'suite dir> [--only <substring>] | conformance spectral <openapi-corpus dir> [--only <substring>]');

function parseArguments(argv: string[]): { command: string; dir: string; only?: string } {
  const [command, dir, ...rest] = argv;
  if (!['prism', 'corpus', 'nl', 'r2rml', 'sparql', 'spectral'].includes(command) || !dir) throw new Error(usage);
  let only: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--only' && rest[i + 1] !== undefined) only = rest[++i];
    else throw new Error(`unknown argument ${rest[i]}\n${usage}`);
  }
  return { command, dir: path.resolve(dir), only };
}

async function main(): Promise<number> {
  const { command, dir, only } = parseArguments(process.argv.slice(2));
  if (command === 'prism') {
    const report = await runPrismSuite(dir, {
      only,
      onOutcome: (o) =>
        !o.passed && console.log(`FAIL ${o.file}: ${o.problems.join('; ')}${o.cause ? ` [${o.cause}]` : ''}`),
    });
    printPrismReport(report);
    return 0;
  }
  if (command === 'r2rml' || command === 'sparql') return runRdfCommand(command, dir, only);
  if (command === 'nl') {
    const outcomes = await runNlSuite(dir, {
      only,
      onOutcome: (o) =>
        o.verdict !== 'correct' &&
        console.log(
          `${o.verdict.toUpperCase()} ${o.item.set}/${o.item.db}: ${o.item.question} -> ${o.sql ?? o.detail}`,
        ),
    });
    printNlReport(outcomes);
    return 0;
  }
  if (command === 'spectral') {
    const results = await runSpectralComparison(dir, {
      only,
      onComparison: (c) => {
        // Equal files too, one line each: a run cut short still says how far it got.
        console.log(`${c.verdict.toUpperCase()} ${c.file}${c.detail ? `: ${c.detail}` : ''}`);
        for (const f of c.onlyOurs) console.log(`  only ours: ${f.rule} ${f.path} line ${f.line}`);
        for (const f of c.onlyCli) console.log(`  only Spectral CLI: ${f.rule} ${f.path} line ${f.line}`);
      },
    });
    const count = (verdict: string) => results.filter((c) => c.verdict === verdict).length;
    console.log(
      `spectral: ${results.length} files, ${count('equal')} equal, ${count('differing')} differing, ` +
        `${count('timeout')} timed out, ${count('failed')} failed`,
    );
    return 0;
  }
  const safe = await runCorpus(dir, { only });
  return safe ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    console.error(error.message);
    process.exitCode = 2;
  },
);
