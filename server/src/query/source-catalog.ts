import type { QuerySource } from '../contract/index.js';
import { UnknownTable } from '../core/domain-errors.js';
import type { Connector, TableInfo } from './connectors/types.js';
import type { Deadline } from './deadline.js';
import type { SourceDefinition } from './sources.js';

/** A configured source with its open connector. */
export interface LiveSource {
  definition: SourceDefinition;
  connector: Connector;
}

/** The sources of one sources.yaml, opened once and shared by every query (connectors pool their connections). */
export class SourceCatalog {
  private readonly sources = new Map<string, LiveSource>();

  constructor(definitions: readonly SourceDefinition[]) {
    try {
      for (const definition of definitions)
        this.sources.set(definition.name.toLowerCase(), { definition, connector: definition.connect() });
    } catch (error) {
      // A source that cannot even be set up (a reload's new sources.yaml): the ones opened before it are closed.
      void this.close();
      throw error;
    }
  }

  /** A source by name, ignoring case as DuckDB does. */
  get(name: string): LiveSource | undefined {
    return this.sources.get(name.toLowerCase());
  }

  /** The source a `<source>.<table>` reference names: {@link UnknownTable} naming the known ones when there is none. */
  require(ref: { source: string; table: string }): LiveSource {
    const source = this.get(ref.source);
    if (source) return source;
    const known = this.list().map((s) => s.definition.name);
    throw new UnknownTable(
      `Unknown source "${ref.source}" in ${ref.source}.${ref.table}; known sources: ${known.join(', ') || 'none'}`,
    );
  }

  /**
   * The source and table a `<source>.<table>` reference names, as its connector describes it: {@link UnknownTable}
   * for an unknown source or table; a connector's own failure passes through unchanged.
   */
  async describe(
    ref: { source: string; table: string },
    deadline: Deadline,
  ): Promise<{ source: LiveSource; info: TableInfo }> {
    const source = this.require(ref);
    const info = await source.connector.describeTable(ref.table, deadline);
    if (!info) throw new UnknownTable(`Source "${source.definition.name}" has no table "${ref.table}"`);
    return { source, info };
  }

  list(): LiveSource[] {
    return [...this.sources.values()];
  }

  /** What `GET /sources` shows: names, types and descriptions only, never a setting. */
  summaries(): QuerySource[] {
    return this.list().map(({ definition }) => ({
      name: definition.name,
      type: definition.type,
      description: definition.description,
    }));
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.list().map((s) => s.connector.close()));
  }
}
