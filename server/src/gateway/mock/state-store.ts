import { randomUUID } from 'node:crypto';
import { httpError } from '../../core/errors.js';
import { encodeCursor, type Page, type PageStart } from './paging.js';

/** Bounds on the state one mount may hold. */
export interface StateLimits {
  /** Items one collection may hold. */
  maxItems: number;
  /** Bytes of JSON all collections of one mount may hold together. */
  maxBytes: number;
}

/** What a collection is made from: its name for errors, its id field and the examples it starts with. */
export interface CollectionDefinition {
  /** The collection's path template, e.g. `/pets` or `/owners/{ownerId}/pets`. */
  template: string;
  idField: string;
  /** Items the collection holds after a reset (the spec's examples). */
  seed: readonly Record<string, unknown>[];
  /**
   * Equal for two versions of the spec whose resource is the same (item schema and examples): a reload
   * keeps the items of a resource whose fingerprint is unchanged and reseeds the others.
   */
  fingerprint: string;
}

type Item = Record<string, unknown>;

const sizeOf = (item: Item) => JSON.stringify(item).length;

/** One collection instance (for nested resources, one per parent: `/owners/1/pets`, `/owners/2/pets`). */
export class Collection {
  readonly items = new Map<string, Item>();
  private readonly sizes = new Map<string, number>();
  /** Each item's place in the order items were added (what a page cursor names), in the order of `items`. */
  private readonly positions = new Map<string, number>();
  private nextPosition = 1;
  /** The next integer id, when ids are integers. */
  private nextNumber = 1;

  constructor(
    private readonly mount: MountState,
    private readonly definition: CollectionDefinition,
  ) {
    for (const item of definition.seed) {
      const id = item[definition.idField];
      if (id === undefined || id === null) continue;
      this.store(String(id), item);
    }
  }

  private store(key: string, item: Item): void {
    const size = sizeOf(item);
    this.mount.bytes += size - (this.sizes.get(key) ?? 0);
    this.sizes.set(key, size);
    this.items.set(key, item);
    if (!this.positions.has(key)) this.positions.set(key, this.nextPosition++);
    const id = item[this.definition.idField];
    if (typeof id === 'number' && Number.isInteger(id) && id >= this.nextNumber) this.nextNumber = id + 1;
  }

  /** Stores `item` under `key` unless a limit would be passed. */
  private put(key: string, item: Item): Item {
    const isNew = !this.items.has(key);
    if (isNew && this.items.size >= this.mount.limits.maxItems)
      throw httpError('MOCK_COLLECTION_FULL', [this.definition.template, this.mount.limits.maxItems]);
    const growth = sizeOf(item) - (this.sizes.get(key) ?? 0);
    if (this.mount.bytes + growth > this.mount.limits.maxBytes)
      throw httpError('MOCK_STATE_FULL', [this.mount.name || '/', this.mount.limits.maxBytes]);
    this.store(key, item);
    return item;
  }

  /** Integer ids when the collection's ids are integers (or it has none yet and the seed had none), else UUIDs. */
  private newId(): string | number {
    const sample = this.definition.seed.find((item) => item[this.definition.idField] !== undefined)?.[
      this.definition.idField
    ];
    return sample === undefined || typeof sample === 'number' ? this.nextNumber : randomUUID();
  }

  /**
   * Up to `size` items in the order they were added, from an index or after the item a cursor names
   * (which may have been removed since). Items added meanwhile come after the existing ones.
   */
  page(size: number, start: PageStart): Page<Item> {
    let index = 0;
    if ('index' in start) index = start.index;
    else for (const position of this.positions.values()) if (position <= start.after) index++;
    const items: Item[] = [];
    let skipped = 0;
    let lastKey: string | undefined;
    for (const [key, item] of this.items) {
      if (skipped++ < index) continue;
      if (items.length >= size) break;
      items.push(item);
      lastKey = key;
    }
    const more = index + items.length < this.items.size;
    const nextCursor = more && lastKey !== undefined ? encodeCursor(this.positions.get(lastKey)!) : undefined;
    return { items, total: this.items.size, index, nextCursor };
  }

  get(id: string): Item {
    const item = this.items.get(id);
    if (!item) throw httpError('MOCK_ITEM_NOT_FOUND', [this.definition.template, this.definition.idField, id]);
    return item;
  }

  /** Adds `item`; its id field is assigned unless the client sent one (409 when that id is taken). */
  create(item: Item): Item {
    const given = item[this.definition.idField];
    if (given !== undefined && given !== null) {
      if (this.items.has(String(given)))
        throw httpError('MOCK_ITEM_EXISTS', [this.definition.template, this.definition.idField, String(given)]);
      return this.put(String(given), item);
    }
    const id = this.newId();
    return this.put(String(id), { ...item, [this.definition.idField]: id });
  }

  /** Replaces (PUT) or merges into (PATCH) an existing item; its id stays the one of the path. */
  update(id: string, body: Item, merge: boolean): Item {
    const existing = this.get(id);
    const base = merge ? existing : {};
    return this.put(id, { ...base, ...body, [this.definition.idField]: existing[this.definition.idField] });
  }

  remove(id: string): Item {
    const item = this.get(id);
    this.mount.bytes -= this.sizes.get(id) ?? 0;
    this.sizes.delete(id);
    this.items.delete(id);
    this.positions.delete(id);
    return item;
  }

  /** Drops the collection's items from its mount's byte count. */
  release(): void {
    for (const size of this.sizes.values()) this.mount.bytes -= size;
  }
}

/** The state of one mount: its collections by template and parent path values. */
class MountState {
  bytes = 0;
  readonly definitions = new Map<string, CollectionDefinition>();
  readonly instances = new Map<string, Collection>();

  constructor(
    readonly name: string,
    readonly limits: StateLimits,
  ) {}

  dropInstances(template: string | undefined): void {
    for (const [key, collection] of this.instances) {
      if (template !== undefined && !key.startsWith(`${template}\n`)) continue;
      collection.release();
      this.instances.delete(key);
    }
  }
}

/** The handle a generated route holds on one collection definition. */
export type CollectionHandle = (parentValues: readonly string[]) => Collection;

/**
 * The in-memory state of stateful mocks, per mount. It outlives spec reloads: a route table built from
 * a new version of a spec asks for its collections again, and gets the items of every collection whose
 * {@link CollectionDefinition.fingerprint} did not change.
 */
export class MockStateStore {
  private readonly mounts = new Map<string, MountState>();

  constructor(private readonly limits: StateLimits) {}

  /** Registers (or re-registers after a reload) a collection of `mount`; returns how routes reach its instances. */
  define(mount: string, definition: CollectionDefinition): CollectionHandle {
    let state = this.mounts.get(mount);
    if (!state) {
      state = new MountState(mount, this.limits);
      this.mounts.set(mount, state);
    }
    const previous = state.definitions.get(definition.template);
    if (previous?.fingerprint !== definition.fingerprint) {
      state.dropInstances(definition.template);
      state.definitions.set(definition.template, definition);
    }
    const mountState = state;
    const current = state.definitions.get(definition.template)!;
    return (parentValues) => {
      const key = `${definition.template}\n${parentValues.join('\n')}`;
      let collection = mountState.instances.get(key);
      if (!collection) {
        collection = new Collection(mountState, current);
        mountState.instances.set(key, collection);
      }
      return collection;
    };
  }

  /** The mounts that have stateful collections. */
  get mountNames(): string[] {
    return [...this.mounts.keys()].sort();
  }

  /** Bytes of JSON `mount` holds. */
  bytesOf(mount: string): number {
    return this.mounts.get(mount)?.bytes ?? 0;
  }

  /** Empties every collection of `mount` (or of every mount); they start again from their examples. */
  reset(mount?: string): string[] {
    if (mount !== undefined && !this.mounts.has(mount)) throw httpError('MOCK_MOUNT_UNKNOWN', [mount]);
    const names = mount !== undefined ? [mount] : this.mountNames;
    for (const name of names) this.mounts.get(name)!.dropInstances(undefined);
    return names;
  }
}
