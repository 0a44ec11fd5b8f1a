import type { PrismReport } from './prism-runner.js';

/** Prints the summary of a Prism run: failures per likely cause, per category, then passed/portable. */
export function printPrismReport(report: PrismReport): void {
  const failures = report.outcomes.filter((o) => !o.passed);
  const byCause = new Map<string, number>();
  for (const failure of failures) {
    const cause = failure.cause ?? 'unexplained';
    byCause.set(cause, (byCause.get(cause) ?? 0) + 1);
  }
  const byCategory = new Map<string, { passed: number; total: number }>();
  for (const outcome of report.outcomes) {
    const entry = byCategory.get(outcome.category) ?? { passed: 0, total: 0 };
    entry.total++;
    if (outcome.passed) entry.passed++;
    byCategory.set(outcome.category, entry);
  }
  console.log('\nfailures by likely cause:');
  for (const [cause, count] of [...byCause].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(count).padStart(3)}  ${cause}`);
  console.log('\nby category (passed/portable):');
  for (const [category, { passed, total }] of [...byCategory].sort())
    console.log(`  ${`${passed}/${total}`.padStart(6)}  ${category}`);
  console.log(
    `\nprism harness: ${report.passed}/${report.portable} portable cases passed (${report.total} cases in the suite)`,
  );
}
