import { describe, expect, it } from 'vitest';
import type { Connector } from './connectors/types.js';
import { UnknownTable } from '../core/domain-errors.js';
import { Deadline } from './deadline.js';
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

  it('describes a known table; an unknown source or table is UnknownTable; a connector fault passes', async () => {
    const table = { name: 'orders', columns: [] };
    const definition: SourceDefinition = {
      ...source('shop', []),
      connect: () =>
        ({
          close: async () => undefined,
          describeTable: async (name: string) => {
            if (name === 'broken') throw new Error('connection refused');
            return name === 'orders' ? table : undefined;
          },
        }) as unknown as Connector,
    };
    const catalog = new SourceCatalog([definition]);
    const deadline = Deadline.after(60_000);
    const found = await catalog.describe({ source: 'SHOP', table: 'orders' }, deadline);
    expect(found.info).toBe(table);
    expect(found.source.definition.name).toBe('shop');
    await expect(catalog.describe({ source: 'shop', table: 'missing' }, deadline)).rejects.toThrow(
      new UnknownTable('Source "shop" has no table "missing"'),
    );
    await expect(catalog.describe({ source: 'nowhere', table: 'orders' }, deadline)).rejects.toBeInstanceOf(
      UnknownTable,
    );
    await expect(catalog.describe({ source: 'shop', table: 'broken' }, deadline)).rejects.toThrow('connection refused');
    await catalog.close();
  });
});
