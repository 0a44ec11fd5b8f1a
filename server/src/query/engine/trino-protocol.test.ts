import { describe, expect, it } from 'vitest';
import { trinoJsonValue } from './trino-engine.js';
import { parseTrinoPage } from './trino-protocol.js';

describe('parseTrinoPage', () => {
  // As Trino writes a page: BIGINT as a bare JSON number, whatever its size.
  const page =
    '{"id":"q1","columns":[{"name":"id","type":"bigint"},{"name":"note","type":"varchar"},' +
    '{"name":"ratio","type":"double"}],"data":[' +
    '[9007199254740993,"order 12345678901234567890 \\" 98765432109876543",0.12345678901234567],' +
    '[-9223372036854775808,"x",1.2345678901234567E17],' +
    '[1234567890123456,"y",12345678901234567.5]]}';

  it('keeps every digit of a BIGINT beyond 2^53, as the documented string', () => {
    const { data, columns } = parseTrinoPage(page);
    expect(data!.map((row) => trinoJsonValue(row[0], columns![0].type))).toEqual([
      '9007199254740993',
      '-9223372036854775808',
      1234567890123456,
    ]);
  });

  it('leaves strings, fractions and exponents as JSON.parse reads them', () => {
    const { data } = parseTrinoPage(page);
    expect(data!.map((row) => row[1])).toEqual(['order 12345678901234567890 " 98765432109876543', 'x', 'y']);
    expect(data!.map((row) => row[2])).toEqual(
      JSON.parse('[0.12345678901234567,1.2345678901234567E17,12345678901234567.5]'),
    );
  });

  it('parses a page without long digit runs exactly as JSON.parse does', () => {
    const text = '{"id":"q2","data":[[42,"forty-two",4.2]],"stats":{"state":"FINISHED"}}';
    expect(parseTrinoPage(text)).toEqual(JSON.parse(text));
  });
});
