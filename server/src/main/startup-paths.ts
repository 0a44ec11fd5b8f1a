import fs from 'node:fs';
import { ConfigError, type Config, type ConfigFlags } from '../core/config.js';

/** Why `target` cannot be used as `want`, or undefined when it can. */
function pathFault(target: string, want: 'folder' | 'spec'): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'it does not exist' : `it cannot be read (${code})`;
  }
  if (want === 'folder' && !stat.isDirectory()) return 'it is not a folder';
  if (want === 'spec' && !stat.isDirectory() && !(stat.isFile() && /\.(ya?ml|json)$/i.test(target)))
    return 'it is neither a folder nor a .yaml, .yml or .json file';
  try {
    fs.accessSync(target, stat.isDirectory() ? fs.constants.R_OK | fs.constants.X_OK : fs.constants.R_OK);
  } catch (error) {
    return `it cannot be read (${(error as NodeJS.ErrnoException).code})`;
  }
  return undefined;
}

/**
 * Checks, before anything is created, that the workspace is a readable folder and that every file or
 * folder named after `serve` can be read. Throws {@link ConfigError} (exit code 2 in the CLI), so a
 * wrong path is one line of message instead of an empty server or a stack trace.
 */
export function checkStartupPaths(config: Config, flags: ConfigFlags): void {
  const workspaceFault = pathFault(config.workspace, 'folder');
  if (workspaceFault)
    throw new ConfigError(
      flags.workspace !== undefined ? '--workspace' : 'WORKSPACE',
      config.workspace,
      `a readable folder, but ${workspaceFault}`,
    );
  for (const specPath of config.specPaths) {
    const fault = pathFault(specPath, 'spec');
    if (fault) throw new ConfigError('spec', specPath, `an OpenAPI file or a folder of them, but ${fault}`);
  }
}
