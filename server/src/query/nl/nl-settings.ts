import { readConfigFile } from '../../core/config-file.js';
import { isObject } from '../../core/json.js';

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

/** Words that mean a table (`source.table`), a column (`source.table.column`) or, with `value`, one value of a column. */
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

function columnPath(value: unknown, at: string): ColumnPath {
  const parts = typeof value === 'string' ? value.split('.') : [];
  if (parts.length !== 3 || parts.some((p) => p === '')) throw new Error(`${at} must be source.table.column`);
  return { source: parts[0], table: parts[1], column: parts[2] };
}

/**
 * Reads the optional `natural_language` section of sources.yaml (relationships and synonyms). Another
 * reader validates the rest of the file; a malformed section here throws an Error naming the entry.
 */
export function nlSettingsOf(section: unknown): NlSettings {
  if (section === undefined || section === null) return { relationships: [], synonyms: [] };
  if (!isObject(section)) throw new Error('natural_language must be a mapping');
  const relationships = (Array.isArray(section.relationships) ? section.relationships : []).map((entry: unknown, i) => {
    if (!isObject(entry)) throw new Error(`natural_language.relationships[${i}] must be a mapping with from and to`);
    return {
      from: columnPath(entry.from, `natural_language.relationships[${i}].from`),
      to: columnPath(entry.to, `natural_language.relationships[${i}].to`),
    };
  });
  const synonyms = (Array.isArray(section.synonyms) ? section.synonyms : []).map((entry: unknown, i) => {
    const at = `natural_language.synonyms[${i}]`;
    if (!isObject(entry) || !Array.isArray(entry.words) || typeof entry.means !== 'string')
      throw new Error(`${at} needs words (a list) and means`);
    const parts = entry.means.split('.');
    if (parts.length < 2 || parts.length > 3)
      throw new Error(`${at}.means must be source.table or source.table.column`);
    if (entry.value !== undefined && parts.length !== 3) throw new Error(`${at}.value needs means to name a column`);
    return {
      words: entry.words.map((w) => String(w).toLowerCase()),
      source: parts[0],
      table: parts[1],
      column: parts[2],
      value: entry.value === undefined ? undefined : String(entry.value),
    };
  });
  return { relationships, synonyms };
}

/** The `natural_language` section of the sources.yaml at `file` (empty when the file or the section is missing). */
export function loadNlSettings(file: string): NlSettings {
  const parsed = readConfigFile(file);
  return nlSettingsOf(isObject(parsed?.value) ? parsed.value.natural_language : undefined);
}
