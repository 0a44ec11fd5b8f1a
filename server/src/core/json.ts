/** A parsed JSON (or YAML) mapping. */
export type JsonObject = Record<string, unknown>;

/** True for a plain mapping: an object that is neither `null` nor an array. */
export const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
