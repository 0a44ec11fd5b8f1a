import type { FieldSpec, SettingsReader } from '../settings-reader.js';
import type { ColumnInfo } from './types.js';

/** Settings of one table of a streaming source: its events' field schema and how many to read. */
export interface StreamTableSettings {
  name: string;
  fields: FieldSpec[];
  /** The newest this many retained events are read (bounds memory on long streams). */
  maxEvents: number;
}

/** Reads the common settings of a streaming table; `metadata` are the stream's own column names. */
export function readStreamTable(
  reader: SettingsReader,
  metadata: readonly string[],
  extraKeys: readonly string[],
): StreamTableSettings {
  reader.allowOnly(['name', 'fields', 'max_events', ...extraKeys]);
  const fields = reader.fields('fields');
  for (const field of fields) {
    if (metadata.includes(field.name.toLowerCase()))
      reader
        .child('fields')
        .fail(
          field.name,
          `"${field.name}" is a metadata column of this source (${metadata.join(', ')}); rename the field`,
        );
  }
  return {
    name: reader.identifier('name'),
    fields,
    maxEvents: reader.integer('max_events', 1, 100_000_000, 1_000_000),
  };
}

/** Column list of a streaming table: metadata columns first, then the configured fields. */
export function streamColumns(metadata: readonly ColumnInfo[], fields: readonly FieldSpec[]): ColumnInfo[] {
  return [...metadata, ...fields.map((f) => ({ name: f.name, type: f.type }))];
}

const integerTypes = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)$/;

/**
 * Converts one event field (from JSON, or a string from Redis) to a value DuckDB accepts for `type`.
 * A value that does not fit the type becomes NULL instead of failing the whole query.
 */
export function fieldValue(raw: unknown, type: string): unknown {
  if (raw === null || raw === undefined) return null;
  if (integerTypes.test(type)) {
    if (typeof raw === 'number') return Number.isInteger(raw) ? raw : null;
    if (typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw)) return BigInt(raw.trim());
    return null;
  }
  if (type === 'FLOAT' || type === 'DOUBLE' || type.startsWith('DECIMAL')) {
    const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
    return Number.isFinite(value) ? value : null;
  }
  if (type === 'BOOLEAN') {
    if (typeof raw === 'boolean') return raw;
    if (raw === 'true' || raw === '1' || raw === 1) return true;
    if (raw === 'false' || raw === '0' || raw === 0) return false;
    return null;
  }
  if (type === 'TIMESTAMP' || type === 'TIMESTAMPTZ' || type === 'DATE') {
    if (typeof raw === 'number') return new Date(raw).toISOString();
    const text = String(raw);
    return Number.isNaN(Date.parse(text)) ? null : text;
  }
  if (type === 'VARCHAR' || type === 'JSON' || type === 'UUID' || type === 'TIME') {
    return typeof raw === 'string' ? raw : JSON.stringify(raw);
  }
  return String(raw);
}
