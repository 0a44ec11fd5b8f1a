import duckdb from '@duckdb/node-bindings';
import {
  DuckDBStructType,
  DuckDBTypeId,
  DuckDBVector,
  type DuckDBArrayType,
  type DuckDBDataChunk,
  type DuckDBListType,
  type DuckDBMapType,
  type DuckDBType,
  type Json,
} from '@duckdb/node-api';
import { jsonValue } from './result-format.js';

/** Thrown when the values being converted would take more JSON bytes than their {@link ByteBudget}. */
export class ValuesTooLarge extends Error {
  constructor() {
    super('the values do not fit their byte budget');
  }
}

/**
 * The JSON bytes values may still take while they are converted. What is charged is never more than the
 * values' JSON takes (a lower bound), so a value refused here could never have fit: the exact size is measured
 * afterwards, on the converted row.
 */
export class ByteBudget {
  constructor(private left: number) {}

  /** Takes `bytes` from the budget; {@link ValuesTooLarge} once it is overdrawn. */
  charge(bytes: number): void {
    this.left -= bytes;
    if (this.left < 0) throw new ValuesTooLarge();
  }
}

/** Converts the value at `index` of one vector to JSON, charging its size to `budget` as it goes. */
type ValueReader = (index: number, budget: ByteBudget) => Json;

/** The validity mask of a vector: bit `i` clear is NULL; no mask means no NULL. */
function validity(vector: duckdb.Vector, count: number): (index: number) => boolean {
  const mask = duckdb.vector_get_validity(vector, Math.ceil(count / 64) * 8);
  if (!mask) return () => true;
  return (index) => (mask[index >> 3] & (1 << (index & 7))) !== 0;
}

/** The lower bound of a value's JSON size once it is converted (strings and blobs are charged before). */
function jsonSize(value: Json): number {
  if (value === null) return 4;
  switch (typeof value) {
    case 'number':
      return String(value).length;
    case 'boolean':
      return value ? 4 : 5;
    case 'string':
      return value.length + 2;
    default:
      return JSON.stringify(value).length;
  }
}

/**
 * A LIST (or MAP, a list of {key, value}): brackets and commas are charged before any item is read, against
 * the list's length, so a list of sixty million items is refused without one of them becoming a JS value.
 */
function listReader(vector: duckdb.Vector, count: number, itemType: DuckDBType): ValueReader {
  const data = duckdb.vector_get_data(vector, count * 16);
  const entries = new BigUint64Array(data.buffer, data.byteOffset, count * 2);
  const item = valueReader(duckdb.list_vector_get_child(vector), duckdb.list_vector_get_size(vector), itemType);
  return nullable(vector, count, (index, budget) => {
    const offset = Number(entries[index * 2]);
    const length = Number(entries[index * 2 + 1]);
    // Each item takes at least one byte, and a comma after all but the last.
    budget.charge(2 + Math.max(0, 2 * length - 1));
    const items: Json[] = [];
    for (let i = 0; i < length; i++) {
      budget.charge(-1);
      items.push(item(offset + i, budget));
    }
    return items;
  });
}

/** An ARRAY of fixed length: its items are consecutive in one child vector. */
function arrayReader(vector: duckdb.Vector, count: number, type: DuckDBArrayType): ValueReader {
  const item = valueReader(duckdb.array_vector_get_child(vector), count * type.length, type.valueType);
  return nullable(vector, count, (index, budget) => {
    budget.charge(2 + Math.max(0, 2 * type.length - 1));
    const items: Json[] = [];
    for (let i = 0; i < type.length; i++) {
      budget.charge(-1);
      items.push(item(index * type.length + i, budget));
    }
    return items;
  });
}

/** A STRUCT: an object of its entries in their order, keys charged with their quotes, colon and comma. */
function structReader(vector: duckdb.Vector, count: number, type: DuckDBStructType): ValueReader {
  const entries = type.entryTypes.map((entryType, i) =>
    valueReader(duckdb.struct_vector_get_child(vector, i), count, entryType),
  );
  const keysBytes = type.entryNames.reduce((sum, name) => sum + JSON.stringify(name).length + 2, 1);
  return nullable(vector, count, (index, budget) => {
    budget.charge(keysBytes);
    const object: Record<string, Json> = {};
    for (let i = 0; i < entries.length; i++) object[type.entryNames[i]] = entries[i](index, budget);
    return object;
  });
}

/** VARCHAR and BLOB: the length in the value's header is charged before the text becomes a JS string. */
function textReader(vector: duckdb.Vector, count: number, type: DuckDBType): ValueReader {
  const data = duckdb.vector_get_data(vector, count * 16);
  const headers = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const values = DuckDBVector.create(vector, count, type);
  return nullable(vector, count, (index, budget) => {
    // Its UTF-8 bytes (a blob's, each written as one or four characters) and two quotes.
    budget.charge(headers.getUint32(index * 16, true) + 2);
    return jsonValue(values.getItem(index), type, jsonValue);
  });
}

/** Any other type: one value of it is small (or, for a union or variant, converted whole), then charged. */
function scalarReader(vector: duckdb.Vector, count: number, type: DuckDBType): ValueReader {
  const values = DuckDBVector.create(vector, count, type);
  return (index, budget) => {
    const value = jsonValue(values.getItem(index), type, jsonValue);
    budget.charge(jsonSize(value));
    return value;
  };
}

/** A reader that answers null (charged as `null`) where the vector's validity mask says so. */
function nullable(vector: duckdb.Vector, count: number, read: ValueReader): ValueReader {
  const valid = validity(vector, count);
  return (index, budget) => {
    if (valid(index)) return read(index, budget);
    budget.charge(4);
    return null;
  };
}

/** The reader of a vector of `count` values of `type`, nested types read through their child vectors. */
function valueReader(vector: duckdb.Vector, count: number, type: DuckDBType): ValueReader {
  switch (type.typeId) {
    case DuckDBTypeId.LIST:
      return listReader(vector, count, (type as DuckDBListType).valueType);
    case DuckDBTypeId.MAP: {
      const { keyType, valueType } = type as DuckDBMapType;
      return listReader(vector, count, new DuckDBStructType(['key', 'value'], [keyType, valueType]));
    }
    case DuckDBTypeId.ARRAY:
      return arrayReader(vector, count, type as DuckDBArrayType);
    case DuckDBTypeId.STRUCT:
      return structReader(vector, count, type as DuckDBStructType);
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.BLOB:
      return textReader(vector, count, type);
    default:
      return scalarReader(vector, count, type);
  }
}

/**
 * The readers of a chunk's columns: each converts a row's value straight from DuckDB's vectors, as the
 * result's JSON will carry it (result-format.ts), and charges its size while it converts, so a value larger
 * than the budget (a list of millions of items, a struct of them, a very long string) is refused after at
 * most a budget's worth of it became JavaScript values, never whole.
 */
export function chunkReaders(chunk: DuckDBDataChunk, types: readonly DuckDBType[]): ValueReader[] {
  return types.map((type, column) =>
    valueReader(duckdb.data_chunk_get_vector(chunk.chunk, column), chunk.rowCount, type),
  );
}
