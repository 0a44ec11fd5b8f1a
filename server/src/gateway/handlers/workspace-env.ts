import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import type { Logger } from '../../core/logger.js';

const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The file of a workspace's handler variables, in the handlers folder: `handlers/.env`. */
export const handlerEnvFileName = '.env';

/** Where handler processes get their environment from: the same object while it is unchanged. */
export interface HandlerEnvSource {
  current(): NodeJS.ProcessEnv;
}

/**
 * The environment handler processes start with: the deployment's (`handlerEnvironment` in core/handler-env.ts)
 * plus what the workspace declares for its handlers in `handlers/.env` (dotenv syntax). A name the deployment
 * already gives keeps the deployment's value, as dotenv leaves a set variable alone: an operator's
 * `HANDLER_ENV` outranks a file in the workspace. The file is read again at every load, so a save restarts the
 * modules with the new values; while it is unchanged, {@link current} returns the same object, which callers
 * compare by identity to know whether a process started with an older environment.
 */
export class WorkspaceHandlerEnv implements HandlerEnvSource {
  private last: { text: string | undefined; env: NodeJS.ProcessEnv } | undefined;

  constructor(
    private readonly deployment: NodeJS.ProcessEnv,
    private readonly handlersDir: string,
    private readonly log: Logger,
  ) {}

  /** The environment for a process started now. */
  current(): NodeJS.ProcessEnv {
    const text = this.readFile();
    if (this.last !== undefined && this.last.text === text) return this.last.env;
    const env = { ...this.fileVariables(text), ...this.deployment };
    this.last = { text, env };
    return env;
  }

  private readFile(): string | undefined {
    try {
      return fs.readFileSync(path.join(this.handlersDir, handlerEnvFileName), 'utf8');
    } catch {
      return undefined; // no file: the deployment's environment alone
    }
  }

  private fileVariables(text: string | undefined): Record<string, string> {
    if (text === undefined) return {};
    const variables: Record<string, string> = {};
    for (const [name, value] of Object.entries(parseEnv(text))) {
      if (variableName.test(name) && value !== undefined) variables[name] = value;
      else this.log.warn({ file: handlerEnvFileName }, `handlers/.env: skipped a line that sets no variable`);
    }
    return variables;
  }
}
