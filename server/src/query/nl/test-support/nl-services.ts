import { QueryService } from '../../query-service.js';
import { loadQuerySetup } from '../../sources.js';
import { NaturalLanguageService } from '../natural-language-service.js';
import { loadNlSettings } from '../nl-settings.js';

/** The query service of `sourcesFile` (its data kept in `dataDir`) and the natural-language service over it. */
export async function naturalLanguageServices(
  sourcesFile: string,
  dataDir: string,
): Promise<{ service: QueryService; nl: NaturalLanguageService }> {
  const service = await QueryService.create(loadQuerySetup(sourcesFile), dataDir, { error: () => undefined });
  return { service, nl: new NaturalLanguageService(service, loadNlSettings(sourcesFile)) };
}

/** A result's rows as arrays of values in column order, easier to compare than objects. */
export const rowValues = (result: {
  columns: readonly { name: string }[];
  rows: readonly Record<string, unknown>[];
}): unknown[][] => result.rows.map((row) => result.columns.map((c) => row[c.name]));
