/** A parsed JSON (or YAML) mapping. */
export type JsonObject = Record<string, unknown>;

/** True for a plain mapping: an object that is neither `null` nor an array. */
export const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A lookup table keyed by words of user input: without a prototype, so "constructor" or "__proto__"
 * find nothing instead of Object's own members.
 */
export const wordTable = <T>(entries: Record<string, T>): Readonly<Record<string, T>> =>
  Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
