import { readConfigFile } from '../../core/config-file.js';
import type { SettingsReader } from '../settings-reader.js';
import { sourcesReader } from '../sources.js';

/** A join key declared in sources.yaml: `from` (source.table.column) references `to`. */
export interface DeclaredRelationship {
  from: ColumnPath;
  to: ColumnPath;
}

export interface ColumnPath {
  source: string;
  table: string;
  column: string;
}

/** Words that mean a table (`source.table`), a column (`source.table.column`) or, with `value`, one value of a column.
 * */
export interface DeclaredSynonym {
  words: string[];
  source: string;
  table: string;
  column?: string;
  value?: string;
}

/** The `natural_language` section of sources.yaml. */
export interface NlSettings {
  relationships: DeclaredRelationship[];
  synonyms: DeclaredSynonym[];
}

function columnPath(reader: SettingsReader, key: string): ColumnPath {
  const parts = reader.string(key).split('.');
  if (parts.length !== 3 || parts.some((p) => p === ''))
    return reader.fail(key, `"${key}" must be source.table.column`);
  return { source: parts[0], table: parts[1], column: parts[2] };
}

function readRelationship(reader: SettingsReader): DeclaredRelationship {
  reader.allowOnly(['from', 'to']);
  return { from: columnPath(reader, 'from'), to: columnPath(reader, 'to') };
}

function readSynonym(reader: SettingsReader): DeclaredSynonym {
  reader.allowOnly(['words', 'means', 'value']);
  const words = reader.value.words;
  if (!Array.isArray(words) || !words.every((w) => typeof w === 'string' || typeof w === 'number'))
    return reader.fail('words', '"words" must be a list of words');
  const parts = reader.string('means').split('.');
  if (parts.length < 2 || parts.length > 3)
    return reader.fail('means', '"means" must be source.table or source.table.column');
  const value = reader.optionalString('value');
  if (value !== undefined && parts.length !== 3) return reader.fail('value', '"value" needs "means" to name a column');
  return {
    words: words.map((w) => String(w).toLowerCase()),
    source: parts[0],
    table: parts[1],
    column: parts[2],
    value,
  };
}

/**
 * Reads the optional `natural_language` section of sources.yaml (relationships and synonyms); `undefined`
 * when there is none. Like the rest of the file, a malformed entry or an unknown key throws a
 * ConfigFileError naming its line and column.
 */
export function nlSettingsOf(section: SettingsReader | undefined): NlSettings {
  if (!section) return { relationships: [], synonyms: [] };
  section.allowOnly(['relationships', 'synonyms']);
  return {
    relationships: section.list('relationships').map(readRelationship),
    synonyms: section.list('synonyms').map(readSynonym),
  };
}

/**
 * The `natural_language` section of the sources.yaml at `file` alone (empty when the file or the section is
 * missing), for tools that drive the NL service without a server; the server reads it with the rest of the
 * query folder (loadQueryWorkspace).
 */
export function loadNlSettings(file: string): NlSettings {
  const parsed = readConfigFile(file);
  return nlSettingsOf(parsed && sourcesReader(parsed).optionalChild('natural_language'));
}
