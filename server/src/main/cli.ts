#!/usr/bin/env node
// First, before any other module runs: see the module's comment.
import '../runtime/tick-object-shape.js';
import fs from 'node:fs';
import { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type ConfigFlags } from '../core/config.js';
import { prestartSpecWorker } from '../gateway/early-start.js';
import { ConfigFileError } from '../core/config-file.js';
import { drainAndClose } from './drain.js';
import { checkStartupPaths } from './startup-paths.js';
import { createLogger } from '../core/logger.js';
import { newWorkbenchToken } from '../workbench/token.js';
import { workbenchUrl } from '../workbench/workbench-url.js';
import { productVersion } from '../core/version.js';
import type { LintOptions } from './lint-command.js';
import type { DiffOptions } from './diff-command.js';

const shutdownBoundMs = 10_000;

/**
 * In one-file mode (`serve a.yaml b.json`, files only), whether no named file loaded at start: then each error is
 * printed with its position and the process exits, so a CI job that mocks a broken contract fails (as `prism mock`
 * exits 1). A folder among the paths keeps the server up waiting for a fix, like a workspace.
 */
async function mockFilesAllFailed(app: FastifyInstance, specPaths: readonly string[]): Promise<boolean> {
  if (specPaths.length === 0 || specPaths.some((file) => fs.statSync(file).isDirectory())) return false;
  const first = await app.gateway.start();
  if (first.specs.length > 0 || first.errors.length === 0) return false;
  for (const { file, line, column, message } of first.errors)
    process.stderr.write(
      `adaptive-gateway: ${[file, line, column].filter((x) => x !== undefined).join(':')}: ${message}\n`,
    );
  return true;
}

async function serve(flags: ConfigFlags): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, flags);
    checkStartupPaths(config, flags);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`adaptive-gateway: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  // The first spec worker loads its modules and the OpenAPI meta-schemas on another core while the server's own
  // modules load (imported here, not above, for that): one-file mock mode answers about 0.25 s sooner.
  prestartSpecWorker(config.specMaxHeapMb, config.workbench, config.specPaths);
  const { buildServer } = await import('./app.js');
  const workbenchToken = config.workbench ? (config.workbenchToken ?? newWorkbenchToken()) : undefined;
  const logger = createLogger(config.logLevel);
  let app;
  try {
    app = await buildServer(config, { workbenchToken, logger, handlerDrainMs: shutdownBoundMs - 2000 });
  } catch (error) {
    if (error instanceof ConfigFileError) {
      process.stderr.write(`adaptive-gateway: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  if (config.authEnabled === false && !['127.0.0.1', 'localhost', '::1'].includes(config.host)) {
    logger.warn(
      'AUTH_ENABLED is false and the server listens on a non-loopback address: anyone who can reach it can change it',
    );
  }
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    process.stderr.write(
      `adaptive-gateway: cannot listen on ${config.host}:${config.port}: ${(error as Error).message}\n`,
    );
    process.exit(1);
  }
  const bound = app.server.address();
  if (bound !== null && typeof bound === 'object') {
    logger.info(
      `Server listening at http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`,
    );
  }
  if (await mockFilesAllFailed(app, config.specPaths)) process.exit(1);
  if (workbenchToken) {
    // Printed once, Jupyter-style: the token is in the URL and nowhere in the logs.
    process.stdout.write(`\nWorkbench: ${workbenchUrl(app.server.address(), config.host, workbenchToken)}\n\n`);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // SIGTERM is an orchestrator's: keep-alive clients are told to go before the server closes. SIGINT
    // (Ctrl-C) closes at once: a browser's idle connections would otherwise hold it for the whole drain.
    const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
    logger.info({ signal, drainMs }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      logger.error(`requests still running after ${drainMs + shutdownBoundMs} ms; exiting`);
      process.exit(1);
    }, drainMs + shutdownBoundMs);
    force.unref();
    drainAndClose(app, drainMs).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

const program = new Command('adaptive-gateway')
  .description('An API gateway that adapts at run time, a federated query service and a cluster health view')
  .version(productVersion);

program
  .command('serve')
  .alias('mock')
  .argument(
    '[specs...]',
    'OpenAPI files or folders to serve at the paths of their own servers[0].url, instead of a workspace',
  )
  .description(
    'run the server on a workspace (specs/, handlers/, query/, health.yaml), or mock the OpenAPI files given',
  )
  .option('-p, --port <port>', 'port to listen on (env PORT, default 8080)')
  .option('-H, --host <host>', 'address to listen on (env HOST, default 127.0.0.1)')
  .option('-w, --workspace <dir>', 'workspace folder (env WORKSPACE, default .)')
  .option('--workbench', 'also serve the browser workbench and its workspace API')
  .action((specPaths: string[], options: ConfigFlags) => serve({ ...options, specPaths }));

program
  .command('lint')
  .argument('<paths...>', 'OpenAPI files or folders to lint')
  .description("lint OpenAPI files with Spectral: the workspace's .spectral.yaml, or spectral:oas when it has none")
  .option('-f, --format <format>', 'text, json, junit or github', 'text')
  .option(
    '-F, --fail-severity <severity>',
    'exit 1 on a finding this serious or more: error, warn, info, hint',
    'error',
  )
  .option('-r, --ruleset <file>', 'ruleset file (default: .spectral.yaml of the workspace)')
  .option('-w, --workspace <dir>', 'workspace folder: references are read only inside it', '.')
  // Spectral and the comparison are imported only for their commands: `serve` starts half a second sooner.
  .action(async (paths: string[], options: LintOptions) =>
    process.exit(await (await import('./lint-command.js')).lintCommand(paths, options)),
  );

program
  .command('diff')
  .argument('<old>', 'the old version: a file, or a git revision and path (HEAD:specs/orders.yaml)')
  .argument('<new>', 'the new version: a file, or a git revision and path')
  .description('list the changes between two versions of an OpenAPI spec; exit 1 when any is breaking')
  .option('-f, --format <format>', 'text, json or github', 'text')
  .option('-w, --workspace <dir>', 'workspace folder: references are read only inside it', '.')
  .action(async (oldSpec: string, newSpec: string, options: DiffOptions) =>
    process.exit(await (await import('./diff-command.js')).diffCommand(oldSpec, newSpec, options)),
  );

await program.parseAsync(process.argv);
