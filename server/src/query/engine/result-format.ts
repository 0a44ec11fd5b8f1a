import {
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  type DuckDBDecimalType,
  type DuckDBTimestampTZValue,
  type DuckDBTimestampValue,
  type DuckDBType,
  type DuckDBValue,
  type DuckDBValueConverter,
  type Json,
} from '@duckdb/node-api';

/** Integers a JSON number carries exactly; anything beyond is sent as a string. */
function integerJson(value: bigint): Json {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value.toString();
}

/** ISO 8601 from microseconds since the epoch, with a `Z` when the value is an instant. */
export function isoFromMicros(micros: bigint, instant: boolean): string {
  let seconds = micros / 1_000_000n;
  let fraction = micros % 1_000_000n;
  if (fraction < 0n) {
    seconds -= 1n;
    fraction += 1_000_000n;
  }
  const date = new Date(Number(seconds) * 1000);
  const digits = fraction === 0n ? '' : `.${fraction.toString().padStart(6, '0').replace(/0+$/, '')}`;
  return `${date.toISOString().slice(0, -5)}${digits}${instant ? 'Z' : ''}`;
}

/**
 * DuckDB values to JSON: 64-bit and larger integers are numbers only inside the safe range, decimals
 * are numbers when a double carries every digit (precision up to 15) and strings otherwise, timestamps
 * are ISO 8601 (instants with `Z`); everything else follows @duckdb/node-api's JSON conversion.
 */
export const jsonValue: DuckDBValueConverter<Json> = (value: DuckDBValue, type: DuckDBType, converter) => {
  if (value === null) return null;
  switch (type.typeId) {
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return integerJson(value as bigint);
    case DuckDBTypeId.DECIMAL:
      return (type as DuckDBDecimalType).width <= 15 ? Number(String(value)) : String(value);
    case DuckDBTypeId.TIMESTAMP:
      return (value as DuckDBTimestampValue).isFinite
        ? isoFromMicros((value as DuckDBTimestampValue).micros, false)
        : String(value);
    case DuckDBTypeId.TIMESTAMP_TZ:
      return (value as DuckDBTimestampTZValue).isFinite
        ? isoFromMicros((value as DuckDBTimestampTZValue).micros, true)
        : String(value);
    default:
      return JsonDuckDBValueConverter(value, type, converter);
  }
};
