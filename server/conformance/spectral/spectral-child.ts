/**
 * Child process of the spectral comparison: lints one file as the workbench does (spectral:oas, references
 * confined to the file's specs folder) and prints the findings as JSON. A child, so a hang is killed.
 */
import fs from 'node:fs/promises';
import { loadRuleset, SpectralLinter } from '../../src/gateway/lint/spectral-linter.js';

const [file, root] = process.argv.slice(2);
const linter = new SpectralLinter(await loadRuleset(undefined), root);
process.stdout.write(JSON.stringify(await linter.lint(file, await fs.readFile(file, 'utf8'))));
