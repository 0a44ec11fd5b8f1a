import { promises as fs } from 'node:fs';
import path from 'node:path';

/** The workspace ruleset files Spectral's own CLI looks for, in its order. */
const rulesetFileNames = ['.spectral.yaml', '.spectral.yml', '.spectral.json', '.spectral.js'];

/**
 * The ruleset file of `workspaceDir`, if it has one. Apart from the linter so that the server, which only looks
 * for the file, does not load Spectral: the lint workers and the `lint` command do.
 */
export async function findRulesetFile(workspaceDir: string): Promise<string | undefined> {
  for (const name of rulesetFileNames) {
    const file = path.join(workspaceDir, name);
    if (
      await fs.stat(file).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return file;
  }
  return undefined;
}
