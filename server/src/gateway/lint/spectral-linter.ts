import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import spectralCore, { type ISpectralDiagnostic, type Ruleset as RulesetType } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import refResolver from '@stoplight/spectral-ref-resolver';
import spectralRulesets from '@stoplight/spectral-rulesets';
import { defaultSpecLimits } from '../../core/settings.js';
import { nestsDeeperThan } from './nesting-depth.js';

// Spectral's packages are CommonJS: Node gives ESM their exports object as the default export only.
const { Document, Ruleset, Spectral } = spectralCore;
const { Json, Yaml } = spectralParsers;
const { Resolver } = refResolver;
const { oas } = spectralRulesets;
// The bundler is CommonJS with an export map Node's ESM resolver reads fine; createRequire keeps its types simple.
const require = createRequire(import.meta.url);
const { bundleAndLoadRuleset } = require('@stoplight/spectral-ruleset-bundler/with-loader') as {
  bundleAndLoadRuleset(file: string, io: unknown, plugins: unknown[]): Promise<RulesetType>;
};
const { builtins } = require('@stoplight/spectral-ruleset-bundler/plugins/builtins') as {
  builtins(): unknown;
};
const { commonjs } = require('@stoplight/spectral-ruleset-bundler/plugins/commonjs') as { commonjs(): unknown };

/** How serious a finding is, Spectral's four levels by name. */
export type LintSeverity = 'error' | 'warning' | 'info' | 'hint';

/** One lint finding at a 1-based line and column of `file`. */
export interface LintFinding {
  file: string;
  line: number;
  column: number;
  severity: LintSeverity;
  /** The rule's name, such as `oas3-valid-media-example` or a workspace rule. */
  rule: string;
  message: string;
  /** Where in the document, as a JSON path (`paths./pets.get`). */
  path: string;
}

const severities: readonly LintSeverity[] = ['error', 'warning', 'info', 'hint'];

/** Largest referenced file the resolver reads; a spec's own size bound elsewhere is of the same order. */
const maxReferencedFileBytes = 16 * 1024 * 1024;

/**
 * Deepest nesting linted, the bound specs are loaded within: Spectral's rules recurse, and a document thousands of
 * levels deep ran past the lint's time bound or overflowed the stack of a process with Node's default stack.
 */
export const maxLintDepth = defaultSpecLimits.maxDepth;

/** Whether `file` is `root` or inside it, after symbolic links are followed. */
async function insideRoot(root: string, file: string): Promise<boolean> {
  const [realRoot, realFile] = await Promise.all([fs.realpath(root), fs.realpath(file)]);
  const relative = path.relative(realRoot, realFile);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * A `$ref` resolver that reads only files under `root` and never the network: Spectral resolves references
 * itself, and a hostile document must not make lint read `/etc/passwd` or call a remote host.
 */
export function confinedResolver(root: string): InstanceType<typeof Resolver> {
  const refused = (): Promise<never> => Promise.reject(new Error('remote references are not followed'));
  return new Resolver({
    resolvers: {
      http: { resolve: refused },
      https: { resolve: refused },
      file: {
        async resolve(ref: { path(): string }): Promise<string> {
          const file = path.resolve(ref.path());
          if (!(await insideRoot(root, file))) throw new Error(`${file} is outside the workspace's specs`);
          const stat = await fs.stat(file);
          if (stat.size > maxReferencedFileBytes) throw new Error(`${file} is too large to reference`);
          return fs.readFile(file, 'utf8');
        },
      },
    },
  });
}

/**
 * Loads the ruleset in `file` (extends, custom rules, severities, overrides) as Spectral's CLI does, or
 * `spectral:oas` when there is none. Extending a remote ruleset is refused: lint never calls the network.
 */
export async function loadRuleset(file: string | undefined): Promise<RulesetType> {
  if (file === undefined) return new Ruleset({ extends: [[oas as never, 'recommended']] }, { severity: 'recommended' });
  const io = {
    fs: { promises: { readFile: fs.readFile } },
    fetch: () => Promise.reject(new Error('rulesets are not fetched from the network')),
  };
  return bundleAndLoadRuleset(path.resolve(file), io, [builtins(), commonjs()]);
}

/** Spectral with a loaded ruleset, confined to the files under `root`. */
export class SpectralLinter {
  constructor(
    private readonly ruleset: RulesetType,
    private readonly root: string,
  ) {}

  /** The findings of `text`, the content of `file`, sorted by line; a document nested too deeply is refused. */
  async lint(file: string, text: string): Promise<LintFinding[]> {
    const source = path.resolve(file);
    const document = /\.json$/i.test(file) ? new Document(text, Json, source) : new Document(text, Yaml, source);
    if (nestsDeeperThan(document.data, maxLintDepth))
      throw new Error(`document is nested deeper than ${maxLintDepth} levels, too deep to lint`);
    // A Spectral and a resolver per file: the resolver caches every document it reads, which over a 200-spec
    // workspace outgrew the worker's 512 MB when one was kept for all files.
    const spectral = new Spectral({ resolver: confinedResolver(this.root) });
    spectral.setRuleset(this.ruleset);
    const diagnostics = await spectral.run(document, { ignoreUnknownFormat: true });
    return diagnostics.map((d) => toFinding(file, d)).sort((a, b) => a.line - b.line || a.column - b.column);
  }
}

function toFinding(file: string, d: ISpectralDiagnostic): LintFinding {
  return {
    file: d.source && path.resolve(d.source) !== path.resolve(file) ? d.source : file,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: severities[d.severity] ?? 'error',
    rule: String(d.code),
    message: d.message,
    path: d.path.join('.'),
  };
}
