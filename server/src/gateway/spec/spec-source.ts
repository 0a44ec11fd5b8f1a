import { LoadError } from '../load-error.js';
import fs from 'node:fs';
import { parseDocument, YAMLError } from 'yaml';
import { type SpecLimits } from '../../core/settings.js';
import { fastYamlValue } from './fast-yaml.js';

/** Reads a spec file within the size bound and decodes it (UTF-8 with or without BOM, UTF-16 with BOM). */
export function readSpecText(file: string, displayName: string, limits: SpecLimits): string {
  const size = fs.statSync(file).size;
  if (size > limits.maxFileBytes) {
    throw new LoadError(displayName, `file is ${size} bytes, over the limit of ${limits.maxFileBytes}`);
  }
  const bytes = fs.readFileSync(file);
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le', { fatal: true }).decode(bytes);
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be', { fatal: true }).decode(bytes);
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new LoadError(displayName, 'file is not valid UTF-8 or UTF-16 text');
  }
}

/**
 * Parses JSON or YAML text into a plain value. YAML is parsed with the core schema (custom tags such
 * as `!!js/function` are refused), unique keys, and a bound on alias expansion, so "billion laughs"
 * documents fail fast. Values are read by the fast parser when it can promise the `yaml` package's values
 * (see {@link fastYamlValue}); else, and for every fault (whose message and position users see), by `yaml`.
 */
export function parseSpecText(text: string, displayName: string, limits: SpecLimits): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch {
      // JSON is YAML too: the YAML parser either accepts the flow syntax or reports the fault's position.
    }
  }
  return fastYamlValue(text) ?? parseYamlExactly(text, displayName, limits);
}

/** YAML text read by the `yaml` package with the core schema: the values and faults that specs are held to. */
export function parseYamlExactly(text: string, displayName: string, limits: SpecLimits): unknown {
  try {
    const document = parseDocument(text, { schema: 'core', uniqueKeys: true, prettyErrors: true, strict: true });
    const fault = document.errors[0] ?? document.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
    if (fault) throw fault;
    return document.toJS({ maxAliasCount: limits.maxYamlAliases });
  } catch (error) {
    if (error instanceof YAMLError) {
      const pos = error.linePos?.[0];
      throw new LoadError(displayName, `invalid YAML: ${error.message.split('\n')[0]}`, pos?.line, pos?.col);
    }
    if (error instanceof RangeError) throw new LoadError(displayName, 'document is nested too deeply to parse');
    throw new LoadError(displayName, `invalid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
}
