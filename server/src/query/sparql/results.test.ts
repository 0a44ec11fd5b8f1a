import { describe, expect, it } from 'vitest';
import { resultsJson, solutions } from './results.js';
import { xsdDecimal, xsdInteger } from './rdf.js';

const iri = { t: 2, d: '', l: '' };

describe('solutions', () => {
  it('joins a template read in parts with its fixed text; a NULL part leaves the variable unbound', () => {
    const rows = solutions(
      [
        { v0_p1: '7', v0_p3: 'a%20b' },
        { v0_p1: null, v0_p3: 'x' },
      ],
      [
        {
          name: 'x',
          id: 'v0',
          fixed: iri,
          template: [{ text: 'http://example.com/' }, { column: 'v0_p1' }, { text: '/' }, { column: 'v0_p3' }],
        },
      ],
    );
    expect(rows.map((row) => row.get('x'))).toEqual([{ type: 'iri', value: 'http://example.com/7/a%20b' }, undefined]);
  });

  it('reads the value alone where the kind is fixed and the four columns otherwise', () => {
    const [row] = solutions(
      [{ v0_v: '10.50', v1_t: 3, v1_v: 'Haus', v1_d: '', v1_l: 'de', v2_t: null, v2_v: null, v2_d: null, v2_l: null }],
      [
        { name: 'price', id: 'v0', fixed: { t: 3, d: xsdDecimal, l: '' } },
        { name: 'label', id: 'v1' },
        { name: 'missing', id: 'v2' },
      ],
    );
    expect(row.get('price')).toEqual({ type: 'literal', value: '10.5', datatype: xsdDecimal, language: undefined });
    expect(row.get('label')).toEqual({ type: 'literal', value: 'Haus', datatype: undefined, language: 'de' });
    expect(row.get('missing')).toBeUndefined();
    // As entries, a solution lists its bound variables only, in projection order.
    expect(Object.fromEntries(row)).toEqual({ price: row.get('price'), label: row.get('label') });
  });
});

describe('resultsJson', () => {
  it('writes bindings of bound variables in the order of the head, with datatypes and language tags', () => {
    const rows = solutions(
      [{ v0_t: 1, v0_v: 'n1', v0_d: '', v0_l: '', v1_v: '42' }],
      [
        { name: 'b', id: 'v0' },
        { name: 'n', id: 'v1', fixed: { t: 3, d: xsdInteger, l: '' } },
      ],
    );
    expect(JSON.stringify(resultsJson(['n', 'b', 'unbound'], rows))).toBe(
      JSON.stringify({
        head: { vars: ['n', 'b', 'unbound'] },
        results: {
          bindings: [
            { n: { type: 'literal', value: '42', datatype: xsdInteger }, b: { type: 'bnode', value: 'b6e31' } },
          ],
        },
      }),
    );
  });
});
