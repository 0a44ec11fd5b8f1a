import { describe, expect, it } from 'vitest';
import { isNumericType, jsonNumber, toCsv, toJson } from './result-format.js';

const decimals = {
  columns: [
    { name: 'id', type: 'HUGEINT' },
    { name: 'amount', type: 'DECIMAL(38,10)' },
    { name: 'big', type: 'BIGINT' },
    { name: 'zip', type: 'VARCHAR' },
  ],
  rows: [
    { id: '1', amount: '1234.5000000000', big: '9007199254740991', zip: '01234' },
    { id: '170141183460469231731687303715884105727', amount: '0.1000000000', big: '9007199254740993', zip: '-5' },
    { id: '-42', amount: null, big: -3, zip: null },
  ],
};

describe('jsonNumber', () => {
  it('makes a number of a numeric string whose double prints as the same decimal value', () => {
    expect(jsonNumber('1234.5000000000')).toBe(1234.5);
    expect(jsonNumber('-0.1')).toBe(-0.1);
    expect(jsonNumber('9007199254740991')).toBe(9007199254740991);
    expect(jsonNumber('1000000000000000000000')).toBe(1e21);
    expect(jsonNumber('007')).toBe(7);
  });
  it('keeps a string whose digits a double would lose, and leaves other values as they are', () => {
    expect(jsonNumber('9007199254740993')).toBe('9007199254740993');
    expect(jsonNumber('170141183460469231731687303715884105727')).toBe('170141183460469231731687303715884105727');
    expect(jsonNumber('0.1000000000000000001')).toBe('0.1000000000000000001');
    expect(jsonNumber('12abc')).toBe('12abc');
    expect(jsonNumber(null)).toBeNull();
    expect(jsonNumber(3)).toBe(3);
  });
});

describe('exports of DECIMAL, BIGINT and HUGEINT columns', () => {
  it('writes numeric columns as JSON numbers where exact, strings where not, and leaves text columns alone', () => {
    const json = toJson(decimals);
    expect(JSON.parse(json)).toEqual([
      { id: 1, amount: 1234.5, big: 9007199254740991, zip: '01234' },
      { id: '170141183460469231731687303715884105727', amount: 0.1, big: '9007199254740993', zip: '-5' },
      { id: -42, amount: null, big: -3, zip: null },
    ]);
    expect(json).toContain('"amount": 1234.5,');
    expect(json).toContain('"id": "170141183460469231731687303715884105727"');
  });
  it('writes numbers unquoted in CSV, every digit kept', () => {
    expect(toCsv(decimals).split('\r\n')).toEqual([
      'id,amount,big,zip',
      '1,1234.5000000000,9007199254740991,01234',
      '170141183460469231731687303715884105727,0.1000000000,9007199254740993,-5',
      '-42,,-3,',
      '',
    ]);
  });
  it('knows the engine numeric types, with their precision, and no others', () => {
    expect(['DECIMAL(18,2)', 'HUGEINT', 'BIGINT', 'DOUBLE', 'UBIGINT'].every(isNumericType)).toBe(true);
    expect(['VARCHAR', 'DATE', 'TERM', 'INTERVAL'].some(isNumericType)).toBe(false);
  });
});
