/** Prints pass counts of the RDF runners: one line per failure was printed as it happened. */
export function printRdfReport(title: string, groups: Map<string, { passed: number; total: number }>): void {
  for (const [group, { passed, total }] of groups)
    console.log(`${title}${group ? ` tier ${group}` : ''}: ${passed}/${total} passed`);
}
