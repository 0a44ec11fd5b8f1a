/**
 * Child process of the spectral comparison: lints files as the workbench does (spectral:oas, references
 * confined to the specs folder `root`) and prints, as JSON, each file's findings or why it could not be linted.
 * A child, so a hang is killed; several files per child, as starting one costs seconds.
 */
import fs from 'node:fs/promises';
import { loadRuleset, SpectralLinter, type LintFinding } from '../../src/gateway/lint/spectral-linter.js';

const [root, ...files] = process.argv.slice(2);
const linter = new SpectralLinter(await loadRuleset(undefined), root);
const results: Record<string, LintFinding[] | { error: string }> = {};
for (const file of files) {
  try {
    results[file] = await linter.lint(file, await fs.readFile(file, 'utf8'));
  } catch (error) {
    results[file] = { error: (error as Error).message };
  }
}
process.stdout.write(JSON.stringify(results));
