import path from 'node:path';
import type { ConfigFile } from '../core/config-file.js';
import { isObject } from '../core/json.js';

type PathKey = string | number;
type Json = Record<string, unknown>;

/**
 * DuckDB column types a configured field may have (streaming sources' field schemas). Kept to the
 * scalar types every connector can convert a JSON or string value into.
 */
const plainFieldTypes = [
  'BOOLEAN',
  'TINYINT',
  'SMALLINT',
  'INTEGER',
  'BIGINT',
  'HUGEINT',
  'FLOAT',
  'DOUBLE',
  'VARCHAR',
];
const timeFieldTypes = ['DATE', 'TIME', 'TIMESTAMP', 'TIMESTAMPTZ', 'UUID', 'JSON'];
const fieldTypePattern = new RegExp(
  String.raw`^(${[...plainFieldTypes, ...timeFieldTypes].join('|')}|DECIMAL\(\s*\d{1,2}\s*,\s*\d{1,2}\s*\))$`,
);

/** A named, typed field of a streaming source's events. */
export interface FieldSpec {
  name: string;
  type: string;
}

/** Identifiers usable unquoted in SQL: source, table and field names. */
export const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads one mapping of a configuration file with typed accessors. Every failure names the line of
 * the offending value (through {@link ConfigFile.fail}).
 */
export class SettingsReader {
  constructor(
    readonly file: ConfigFile,
    readonly at: readonly PathKey[],
    readonly value: Json,
  ) {}

  /** A reader over `node` at `at`, failing when it is not a mapping. */
  static of(file: ConfigFile, at: readonly PathKey[], node: unknown, what: string): SettingsReader {
    if (!isObject(node)) return file.fail(at, `${what} must be a mapping`);
    return new SettingsReader(file, at, node);
  }

  /** Throws a located error about `key` (or this mapping when `key` is omitted). */
  fail(key: PathKey | undefined, message: string): never {
    return this.file.fail(key === undefined ? this.at : [...this.at, key], message);
  }

  /** Fails on any key outside `allowed`, so a misspelt setting is not silently ignored. */
  allowOnly(allowed: readonly string[]): void {
    for (const key of Object.keys(this.value)) {
      if (!allowed.includes(key)) this.fail(key, `unknown setting "${key}"; expected one of ${allowed.join(', ')}`);
    }
  }

  has(key: string): boolean {
    return this.value[key] !== undefined && this.value[key] !== null;
  }

  string(key: string, fallback?: string): string {
    const value = this.value[key];
    if (value === undefined || value === null) {
      if (fallback !== undefined) return fallback;
      return this.fail(key, `"${key}" is required`);
    }
    if (typeof value !== 'string' && typeof value !== 'number') return this.fail(key, `"${key}" must be a string`);
    const text = String(value);
    if (text.trim() === '' && fallback === undefined) return this.fail(key, `"${key}" must not be empty`);
    return text;
  }

  optionalString(key: string): string | undefined {
    return this.has(key) ? this.string(key) : undefined;
  }

  integer(key: string, min: number, max: number, fallback: number): number {
    if (!this.has(key)) return fallback;
    const value = Number(this.value[key]);
    if (!Number.isInteger(value) || value < min || value > max)
      return this.fail(key, `"${key}" must be a whole number from ${min} to ${max}`);
    return value;
  }

  boolean(key: string, fallback: boolean): boolean {
    if (!this.has(key)) return fallback;
    const value = this.value[key];
    if (typeof value !== 'boolean') return this.fail(key, `"${key}" must be true or false`);
    return value;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], fallback?: T): T {
    const value = this.string(key, fallback);
    if (!(allowed as readonly string[]).includes(value))
      return this.fail(key, `"${key}" must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
    return value as T;
  }

  /** An SQL identifier (letters, digits, underscore; not starting with a digit). */
  identifier(key: string, fallback?: string): string {
    const value = this.string(key, fallback);
    if (!identifierPattern.test(value))
      return this.fail(
        key,
        `"${key}" must be an identifier (letters, digits and _, not starting with a digit), got ` +
          `${JSON.stringify(value)}`,
      );
    return value;
  }

  /** A path, resolved against `baseDir` when relative. */
  path(key: string, baseDir: string): string {
    return path.resolve(baseDir, this.string(key));
  }

  /** A nested mapping. */
  child(key: string): SettingsReader {
    return SettingsReader.of(this.file, [...this.at, key], this.value[key], `"${key}"`);
  }

  /** A nested mapping, or `undefined` when the key is absent. */
  optionalChild(key: string): SettingsReader | undefined {
    return this.has(key) ? this.child(key) : undefined;
  }

  /** A list of mappings; an absent key is an empty list. */
  list(key: string): SettingsReader[] {
    const value = this.value[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) return this.fail(key, `"${key}" must be a list`);
    return value.map((item, i) => SettingsReader.of(this.file, [...this.at, key, i], item, `each entry of "${key}"`));
  }

  /** A list of strings; an absent key is `undefined`. */
  stringList(key: string): string[] | undefined {
    const value = this.value[key];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
      return this.fail(key, `"${key}" must be a list of strings`);
    return value as string[];
  }

  /** A field schema: a mapping of field name to DuckDB type, in file order. */
  fields(key: string): FieldSpec[] {
    const reader = this.child(key);
    const fields: FieldSpec[] = [];
    for (const [name, type] of Object.entries(reader.value)) {
      if (!identifierPattern.test(name)) reader.fail(name, `field name "${name}" must be an identifier`);
      const normalised = typeof type === 'string' ? type.trim().toUpperCase() : '';
      if (!fieldTypePattern.test(normalised)) {
        reader.fail(
          name,
          `field "${name}" has type ${JSON.stringify(type)}; expected BOOLEAN, an integer type, FLOAT, DOUBLE, ` +
            `DECIMAL(p,s), VARCHAR, DATE, TIME, TIMESTAMP, TIMESTAMPTZ, UUID or JSON`,
        );
      }
      fields.push({ name, type: normalised.replace(/\s+/g, '') });
    }
    if (fields.length === 0) reader.fail(undefined, `"${key}" must name at least one field`);
    return fields;
  }
}
