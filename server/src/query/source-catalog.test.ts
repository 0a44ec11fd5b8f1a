import { describe, expect, it } from 'vitest';
import type { Connector } from './connectors/types.js';
import { SourceCatalog } from './source-catalog.js';
import type { SourceDefinition } from './sources.js';

/** A source whose connector records that it was closed, or (`fails`) whose connector cannot be set up. */
function source(name: string, closed: string[], fails = false): SourceDefinition {
  return {
    name,
    type: 'relational',
    description: '',
    connector: 'test',
    trino: { catalog: name, schema: 'default' },
    connect: () => {
      if (fails) throw new Error(`${name} cannot be set up`);
      return { close: async () => void closed.push(name) } as unknown as Connector;
    },
  };
}

describe('SourceCatalog', () => {
  it('closes the connectors it opened when a later source cannot be set up, and throws its error', async () => {
    const closed: string[] = [];
    expect(() => new SourceCatalog([source('a', closed), source('b', closed), source('c', closed, true)])).toThrow(
      'c cannot be set up',
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed.sort()).toEqual(['a', 'b']);
  });
});
