import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** One instruction of a Dockerfile: `COPY --from=build a b` -> `{keyword: 'COPY', flags: {from: 'build'}, args: ['a',
 * 'b']}`. */
export interface Instruction {
  keyword: string;
  flags: Record<string, string>;
  args: string[];
  /** The text after the keyword, flags included (a RUN's shell command). */
  text: string;
}

/** The instructions of a Dockerfile, continuation lines joined, comments and the syntax line dropped. */
export function parseDockerfile(source: string): Instruction[] {
  const logical = source
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return logical.map((line) => {
    const [keyword, ...rest] = line.split(/\s+/);
    const text = line.slice(keyword.length).trim();
    const flags: Record<string, string> = {};
    const args: string[] = [];
    for (const word of rest) {
      const flag = args.length === 0 ? /^--([a-z-]+)=(.*)$/.exec(word) : null;
      if (flag) flags[flag[1]] = flag[2];
      else args.push(word);
    }
    return { keyword: keyword.toUpperCase(), flags, args, text };
  });
}

/** A stage being replayed: its file system root in the scratch folder, working directory and environment. */
interface Stage {
  root: string;
  workdir: string;
  env: Record<string, string>;
  entrypoint: string[];
  cmd: string[];
}

/** What a replay made: each stage's root folder, environment and command. */
export type ReplayedStages = Record<string, Omit<Stage, 'workdir'> & { workdir: string }>;

/** The names `.dockerignore` leaves out of the build context (only `name` and `** /name` patterns are used). */
function ignoredNames(dockerignore: string): Set<string> {
  const names = new Set<string>();
  for (const line of dockerignore.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const name = line.replace(/^\*\*\//, '');
    if (/[*?[\]!/]/.test(name)) throw new Error(`.dockerignore pattern the replay does not understand: ${line}`);
    names.add(name);
  }
  return names;
}

/** The files `source` names (a `*` is allowed in its last segment), relative to `base`. */
function expand(base: string, source: string): string[] {
  if (!source.includes('*')) return [path.join(base, source)];
  const dir = path.join(base, path.dirname(source));
  const pattern = new RegExp(
    `^${path
      .basename(source)
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')}$`,
  );
  return fs
    .readdirSync(dir)
    .filter((name) => pattern.test(name))
    .map((name) => path.join(dir, name));
}

/**
 * Replays a Dockerfile in `scratch` without Docker: every stage gets a folder standing for its file
 * system; COPY copies exactly what Docker would (from the build context less `.dockerignore`, or from
 * an earlier stage); RUN runs the steps that make the project (npm), in the stage's working directory,
 * with `--mount` cache flags dropped so the machine's npm cache serves. RUN steps about the operating
 * system (apt-get, users, system folders) are listed in `skipped`, not run.
 */
export function replayDockerfile(
  dockerfile: string,
  context: string,
  scratch: string,
  options: { buildArgs?: Record<string, string> } = {},
): { stages: ReplayedStages; skipped: string[] } {
  const instructions = parseDockerfile(fs.readFileSync(dockerfile, 'utf8'));
  const ignorePath = `${dockerfile}.dockerignore`;
  const ignored = ignoredNames(fs.existsSync(ignorePath) ? fs.readFileSync(ignorePath, 'utf8') : '');
  const stages: ReplayedStages = {};
  const skipped: string[] = [];
  let stage: Stage | undefined;
  const inStage = (s: Stage, target: string) =>
    path.join(s.root, path.posix.isAbsolute(target) ? target : path.posix.join(s.workdir, target));
  for (const { keyword, flags, args, text } of instructions) {
    if (keyword === 'FROM') {
      const name = args[2] ?? `stage${Object.keys(stages).length}`;
      stage = { root: path.join(scratch, name), workdir: '/', env: {}, entrypoint: [], cmd: [] };
      fs.mkdirSync(stage.root, { recursive: true });
      stages[name] = stage;
      continue;
    }
    if (!stage) throw new Error(`${keyword} before FROM`);
    if (keyword === 'WORKDIR') {
      stage.workdir = path.posix.resolve(stage.workdir, args[0]);
      fs.mkdirSync(inStage(stage, '.'), { recursive: true });
    } else if (keyword === 'ENV') {
      for (const pair of args) {
        const [name, ...value] = pair.split('=');
        stage.env[name] = value.join('=');
      }
    } else if (keyword === 'COPY') {
      const destination = args.at(-1)!;
      const from = flags.from ? stages[flags.from] : undefined;
      if (flags.from && !from) throw new Error(`COPY --from=${flags.from}: no such stage`);
      const sources = args
        .slice(0, -1)
        .flatMap((source) => (from ? expand(from.root, source) : expand(context, source)));
      if (sources.length === 0) throw new Error(`COPY ${text}: nothing matches`);
      const target = inStage(stage, destination);
      const intoFolder = destination.endsWith('/') || sources.length > 1;
      for (const source of sources) {
        if (!fs.existsSync(source))
          throw new Error(`COPY ${text}: ${path.relative(from?.root ?? context, source)} does not exist`);
        // A folder's contents go to the destination; a file goes into it when it is a folder.
        const to = fs.statSync(source).isDirectory() || !intoFolder ? target : path.join(target, path.basename(source));
        fs.cpSync(source, to, {
          recursive: true,
          filter: (file) =>
            from !== undefined ||
            !path
              .relative(context, file)
              .split(path.sep)
              .some((part) => ignored.has(part)),
        });
      }
    } else if (keyword === 'RUN') {
      const command = text.replace(/^(--[a-z-]+=\S+\s+)+/, '');
      if (!/^npm\s/.test(command)) {
        skipped.push(command);
        continue;
      }
      // Not the test runner's npm settings (npm_config_*, NODE_ENV): the image starts without them.
      const machine = Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !/^npm_|^NODE_ENV$/i.test(name)),
      );
      execFileSync('sh', ['-c', command], {
        cwd: inStage(stage, '.'),
        stdio: 'pipe',
        env: { ...machine, ...options.buildArgs, ...stage.env },
      });
    } else if (keyword === 'ENTRYPOINT' || keyword === 'CMD') {
      const value = JSON.parse(text) as string[];
      if (keyword === 'ENTRYPOINT') stage.entrypoint = value;
      else stage.cmd = value;
    }
  }
  return { stages, skipped };
}
