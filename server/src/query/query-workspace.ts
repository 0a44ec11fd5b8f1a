import fs from 'node:fs';
import path from 'node:path';
import N3 from 'n3';
import { ConfigFileError, readConfigFile } from '../core/config-file.js';
import type { Config } from '../core/config.js';
import { nlSettingsOf, type NlSettings } from './nl/nl-settings.js';
import { emptyOntology, loadOntology, type Ontology } from './sparql/ontology.js';
import { loadMapping, MappingError, type MappedTriple, type MappingOptions } from './sparql/r2rml.js';
import { emptyQuerySetup, querySetupOf, sourcesReader, type QuerySetup } from './sources.js';

/** What a Turtle file of the query folder gave: its content, or the located fault that kept it out. */
export type TurtleFile<T> = { ok: true; value: T } | { ok: false; fault: ConfigFileError };

/** The files that describe the knowledge graph: ontology.ttl and mapping.ttl beside sources.yaml. */
export interface GraphFiles {
  /** The ontology's axioms, labels and prefixes (none when the file is absent). */
  ontology: TurtleFile<Ontology>;
  /** The triples the R2RML mapping produces, not yet saturated with the ontology (none when absent). */
  mapping: TurtleFile<MappedTriple[]>;
}

/** The query folder, read and validated together, for the SQL, SPARQL and natural-language services alike. */
export interface QueryWorkspace extends GraphFiles {
  /** sources.yaml: engine, limits, the async pool and the sources. */
  setup: QuerySetup;
  /** The `natural_language` section of sources.yaml. */
  nl: NlSettings;
}

/** The ontology with the mapping, when both loaded. */
export interface KnowledgeGraph {
  ontology: Ontology;
  mapping: MappedTriple[];
}

/**
 * Reads the query folder: sources.yaml (`QUERY_SOURCES`) and, in its folder, ontology.ttl and mapping.ttl.
 *
 * sources.yaml configures the query service: a fault anywhere in it, the `natural_language` section
 * included, throws a ConfigFileError naming its line and column, and the server does not start (a
 * missing file means no sources). The Turtle files describe only the knowledge graph: a fault there is
 * kept, located, in the result, so that SQL still serves while SPARQL answers with the fault and natural
 * language goes without the ontology's labels.
 */
export function loadQueryWorkspace(
  config: Pick<Config, 'querySources' | 'queryDir'>,
  env?: Record<string, string | undefined>,
): QueryWorkspace {
  const parsed = readConfigFile(config.querySources, env);
  return {
    setup: parsed ? querySetupOf(parsed) : emptyQuerySetup(),
    nl: nlSettingsOf(parsed && sourcesReader(parsed).optionalChild('natural_language')),
    ...readGraphFiles(config.queryDir),
  };
}

/** ontology.ttl and mapping.ttl of `folder`; `options` as loadMapping takes them (base IRI, default source). */
export function readGraphFiles(folder: string, options: MappingOptions = {}): GraphFiles {
  return {
    ontology: readTurtle(path.join(folder, 'ontology.ttl'), loadOntology, emptyOntology()),
    mapping: readTurtle(path.join(folder, 'mapping.ttl'), (text) => loadMapping(text, options), [], options.baseIri),
  };
}

/** The ontology and the mapping; or, when either did not load, the fault of each (`file:line:column: problem`). */
export function knowledgeGraph({ ontology, mapping }: GraphFiles): KnowledgeGraph | { fault: string } {
  if (ontology.ok && mapping.ok) return { ontology: ontology.value, mapping: mapping.value };
  return { fault: [ontology, mapping].flatMap((file) => (file.ok ? [] : [file.fault.message])).join('; ') };
}

/** `parse` of the file's text; `absent` when there is no file; a located fault for a MappingError. */
function readTurtle<T>(file: string, parse: (text: string) => T, absent: T, baseIri?: string): TurtleFile<T> {
  if (!fs.existsSync(file)) return { ok: true, value: absent };
  const text = fs.readFileSync(file, 'utf8');
  try {
    return { ok: true, value: parse(text) };
  } catch (error) {
    if (!(error instanceof MappingError)) throw error;
    const at = turtlePosition(text, error.message, baseIri);
    return { ok: false, fault: new ConfigFileError(file, error.message, at?.line, at?.column) };
  }
}

interface Position {
  line: number;
  column: number;
}

/** What N3 attaches to a syntax error (`start` and `end` are 0-based columns of the token's line). */
interface N3ErrorContext {
  line: number;
  token?: { start: number };
  previousToken?: { line: number; end: number };
}

/** An N3 lexer token, with the columns N3 2.x records and its typings leave out. */
type Token = N3.Token & { start: number };

/**
 * Where a Turtle file went wrong: for a syntax error, where N3 stopped (the problem texts keep only its
 * line); for a mapping that parses but is not valid R2RML, the first mention of the first IRI the
 * problem names, which is the triples map at fault. Undefined when neither can be told (a triples map
 * written as a blank node).
 */
function turtlePosition(text: string, problem: string, baseIri?: string): Position | undefined {
  try {
    new N3.Parser({ baseIRI: baseIri }).parse(text);
  } catch (error) {
    const context = (error as { context?: N3ErrorContext }).context;
    if (!context) return undefined;
    if (context.token) return { line: context.line, column: context.token.start + 1 };
    // A lexer error: the text it could not read starts at the first non-blank after the previous token.
    const lineText = text.split(/\r?\n/)[context.line - 1] ?? '';
    const from = context.previousToken?.line === context.line ? context.previousToken.end : 0;
    return { line: context.line, column: from + lineText.slice(from).search(/\S|$/) + 1 };
  }
  const named = /<([^<>\s]+)>/.exec(problem)?.[1];
  return named === undefined ? undefined : firstMention(text, named, baseIri);
}

/** The position of the first token of `text` that stands for `iri` (written in full or with a prefix). */
function firstMention(text: string, iri: string, baseIri?: string): Position | undefined {
  const resolve = (written: string): string => {
    if (!baseIri) return written;
    try {
      return new URL(written, baseIri).href;
    } catch {
      return written;
    }
  };
  const prefixes = new Map<string, string>();
  const tokens = new N3.Lexer().tokenize(text) as Token[];
  for (const [i, token] of tokens.entries()) {
    const value = token.value ?? '';
    if (token.type === 'prefix' && tokens[i + 1]?.type === 'IRI')
      prefixes.set(value, resolve(tokens[i + 1].value ?? ''));
    const namespace = token.type === 'prefixed' ? prefixes.get(token.prefix ?? '') : undefined;
    const stands =
      token.type === 'IRI' && tokens[i - 1]?.type !== 'prefix' ? resolve(value) : namespace && `${namespace}${value}`;
    if (stands === iri) return { line: token.line, column: token.start + 1 };
  }
  return undefined;
}
