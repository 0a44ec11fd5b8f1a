import { dereference, refOf } from '../model/json-pointer.js';
import type { ChangeKind, Direction } from './change-kinds.js';

/** One change inside a schema: its kind, the field it is at (`items[].id`, '' for the schema itself) and why. */
export interface SchemaChange {
  kind: ChangeKind;
  at: string;
  message: string;
}

type Schema = Record<string, unknown>;

/** Deeper than this, schemas are not compared (a generated spec nests far less; a hostile one may not). */
const maxDepth = 48;

/** Keywords whose lower value accepts less (`maxLength`), and whose higher value accepts less (`minimum`). */
const upperBounds = ['maxLength', 'maximum', 'maxItems'] as const;
const lowerBounds = ['minLength', 'minimum', 'minItems'] as const;

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function typesOf(schema: Schema): Set<string> {
  const type = schema.type;
  const types = Array.isArray(type) ? type : typeof type === 'string' ? [type] : [];
  return new Set(types.filter((t): t is string => typeof t === 'string'));
}

/** Whether every type of `inner` is accepted by `outer` (a number accepts integers). */
function accepts(outer: Set<string>, inner: Set<string>): boolean {
  if (outer.size === 0) return true;
  return [...inner].every((t) => outer.has(t) || (t === 'integer' && outer.has('number')));
}

function join(at: string, field: string): string {
  return at === '' ? field : `${at}.${field}`;
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isSchema(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

function typeChanges(old: Schema, neu: Schema): SchemaChange[] {
  const was = typesOf(old);
  const is = typesOf(neu);
  const changes: SchemaChange[] = [];
  const shown = (types: Set<string>) => (types.size ? [...types].join('|') : 'any');
  const message = `type ${shown(was)} became ${shown(is)}`;
  if (canonical([...was].sort()) !== canonical([...is].sort())) {
    const wider = accepts(is, was);
    const narrower = accepts(was, is);
    if (wider && !narrower) changes.push({ kind: 'type-widened', at: '', message });
    else if (narrower && !wider) changes.push({ kind: 'type-narrowed', at: '', message });
    else changes.push({ kind: 'type-changed', at: '', message });
  }
  if (old.nullable === true && neu.nullable !== true)
    changes.push({ kind: 'nullable-removed', at: '', message: 'null is no longer allowed' });
  if (old.nullable !== true && neu.nullable === true)
    changes.push({ kind: 'nullable-added', at: '', message: 'null is now allowed' });
  if (old.format !== neu.format)
    changes.push({
      kind: 'format-changed',
      at: '',
      message: `format ${old.format ?? 'none'} became ${neu.format ?? 'none'}`,
    });
  return changes;
}

function enumChanges(old: Schema, neu: Schema): SchemaChange[] {
  const was = Array.isArray(old.enum) ? old.enum : undefined;
  const is = Array.isArray(neu.enum) ? neu.enum : undefined;
  if (!was && !is) return [];
  if (!was) return [{ kind: 'enum-added', at: '', message: `values limited to ${canonical(is)}` }];
  if (!is) return [{ kind: 'enum-removed', at: '', message: `values no longer limited to ${canonical(was)}` }];
  const wasKeys = new Set(was.map(canonical));
  const isKeys = new Set(is.map(canonical));
  const changes: SchemaChange[] = [];
  for (const value of wasKeys)
    if (!isKeys.has(value))
      changes.push({ kind: 'enum-value-removed', at: '', message: `enum value ${value} removed` });
  for (const value of isKeys)
    if (!wasKeys.has(value)) changes.push({ kind: 'enum-value-added', at: '', message: `enum value ${value} added` });
  return changes;
}

function boundChanges(old: Schema, neu: Schema): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const shown = (v: unknown) => (typeof v === 'number' ? String(v) : 'none');
  const compare = (keyword: string, tighter: (was: number, is: number) => boolean, tight: string, loose: string) => {
    const was = typeof old[keyword] === 'number' ? (old[keyword] as number) : undefined;
    const is = typeof neu[keyword] === 'number' ? (neu[keyword] as number) : undefined;
    if (was === is) return;
    const message = `${keyword} ${shown(was)} became ${shown(is)}`;
    const narrowed = was === undefined || (is !== undefined && tighter(was, is));
    changes.push({ kind: `${keyword}-${narrowed ? tight : loose}` as ChangeKind, at: '', message });
  };
  for (const keyword of upperBounds) compare(keyword, (was, is) => is < was, 'lowered', 'raised');
  for (const keyword of lowerBounds) compare(keyword, (was, is) => is > was, 'raised', 'lowered');
  if (old.pattern !== neu.pattern) {
    const kind =
      old.pattern === undefined ? 'pattern-added' : neu.pattern === undefined ? 'pattern-removed' : 'pattern-changed';
    changes.push({
      kind,
      at: '',
      message: `pattern ${String(old.pattern ?? 'none')} became ${String(neu.pattern ?? 'none')}`,
    });
  }
  if (canonical(old.default) !== canonical(neu.default))
    changes.push({
      kind: 'default-changed',
      at: '',
      message: `default ${canonical(old.default)} became ${canonical(neu.default)}`,
    });
  if (old.deprecated !== true && neu.deprecated === true)
    changes.push({ kind: 'deprecated-added', at: '', message: 'deprecated' });
  if (old.additionalProperties !== false && neu.additionalProperties === false)
    changes.push({
      kind: 'additional-properties-disallowed',
      at: '',
      message: 'other properties are no longer allowed',
    });
  return changes;
}

function requiredOf(schema: Schema): Set<string> {
  return new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
}

function propertiesOf(schema: Schema): Record<string, unknown> {
  return isSchema(schema.properties) ? schema.properties : {};
}

/**
 * Compares the schemas of two versions of a document: each change with its kind, the verdict of which
 * {@link verdictOf} gives for the direction. `$ref` pairs are compared once and remembered (a component used by
 * a hundred operations costs one comparison), and a reference cycle ends the walk.
 */
export class SchemaDiffer {
  private readonly memo = new Map<string, SchemaChange[]>();
  private readonly inProgress = new Set<string>();

  constructor(
    private readonly oldDocument: unknown,
    private readonly newDocument: unknown,
  ) {}

  /** The changes from `old` to `neu`, schemas of the old and the new document, seen in `direction`. */
  diff(old: unknown, neu: unknown, direction: Direction, depth = 0): SchemaChange[] {
    if (depth > maxDepth) return [];
    const oldRef = refOf(old);
    const newRef = refOf(neu);
    if (oldRef === undefined && newRef === undefined) return this.compare(old, neu, direction, depth);
    const key = `${direction} ${oldRef ?? canonical(old)} ${newRef ?? canonical(neu)}`;
    const known = this.memo.get(key);
    if (known) return known;
    if (this.inProgress.has(key)) return [];
    this.inProgress.add(key);
    const changes = this.compare(
      this.resolve(this.oldDocument, old),
      this.resolve(this.newDocument, neu),
      direction,
      depth,
    );
    this.inProgress.delete(key);
    this.memo.set(key, changes);
    return changes;
  }

  /** `value` with its `$ref`s followed; a reference that does not resolve is compared as it is. */
  resolve(document: unknown, value: unknown): unknown {
    try {
      return dereference(document, value, '#').value;
    } catch {
      return value;
    }
  }

  private compare(old: unknown, neu: unknown, direction: Direction, depth: number): SchemaChange[] {
    if (!isSchema(old) || !isSchema(neu)) {
      if (canonical(old) === canonical(neu)) return [];
      return [{ kind: 'type-changed', at: '', message: 'the schema was replaced' }];
    }
    const changes = [...typeChanges(old, neu), ...enumChanges(old, neu), ...boundChanges(old, neu)];
    changes.push(...this.propertyChanges(old, neu, direction, depth));
    if (old.items !== undefined && neu.items !== undefined)
      changes.push(...this.nested(this.diff(old.items, neu.items, direction, depth + 1), '[]'));
    if (isSchema(old.additionalProperties) && isSchema(neu.additionalProperties))
      changes.push(
        ...this.nested(this.diff(old.additionalProperties, neu.additionalProperties, direction, depth + 1), '*'),
      );
    for (const keyword of ['oneOf', 'anyOf'] as const)
      changes.push(...this.branchChanges(keyword, old, neu, direction, depth));
    changes.push(...this.allOfChanges(old, neu, direction, depth));
    return changes;
  }

  private nested(changes: SchemaChange[], field: string): SchemaChange[] {
    return changes.map((c) => ({
      ...c,
      at: c.at === '' ? field : c.at.startsWith('[]') ? `${field}${c.at}` : join(field, c.at),
    }));
  }

  private propertyChanges(old: Schema, neu: Schema, direction: Direction, depth: number): SchemaChange[] {
    const wasProps = propertiesOf(old);
    const isProps = propertiesOf(neu);
    const wasRequired = requiredOf(old);
    const isRequired = requiredOf(neu);
    const changes: SchemaChange[] = [];
    for (const name of Object.keys(wasProps)) {
      if (!Object.hasOwn(isProps, name)) {
        changes.push({ kind: 'property-removed', at: name, message: `property ${name} removed` });
        continue;
      }
      if (!wasRequired.has(name) && isRequired.has(name))
        changes.push({ kind: 'property-made-required', at: name, message: `property ${name} made required` });
      if (wasRequired.has(name) && !isRequired.has(name))
        changes.push({ kind: 'property-made-optional', at: name, message: `property ${name} made optional` });
      changes.push(...this.nested(this.diff(wasProps[name], isProps[name], direction, depth + 1), name));
    }
    for (const name of Object.keys(isProps)) {
      if (Object.hasOwn(wasProps, name)) continue;
      const required = isRequired.has(name);
      const kind = required ? 'property-added-required' : 'property-added';
      changes.push({ kind, at: name, message: `${required ? 'required' : 'optional'} property ${name} added` });
    }
    return changes;
  }

  /** `oneOf`/`anyOf` branches: the same `$ref` or text is the same branch; the rest are paired in order. */
  private branchChanges(
    keyword: 'oneOf' | 'anyOf',
    old: Schema,
    neu: Schema,
    direction: Direction,
    depth: number,
  ): SchemaChange[] {
    const was = Array.isArray(old[keyword]) ? (old[keyword] as unknown[]) : [];
    const is = Array.isArray(neu[keyword]) ? (neu[keyword] as unknown[]) : [];
    if (was.length === 0 && is.length === 0) return [];
    const key = (branch: unknown) => refOf(branch) ?? canonical(branch);
    const isKeys = new Set(is.map(key));
    const wasKeys = new Set(was.map(key));
    const removed = was.filter((branch) => !isKeys.has(key(branch)));
    const added = is.filter((branch) => !wasKeys.has(key(branch)));
    if (removed.length === added.length)
      return removed.flatMap((branch, i) =>
        this.nested(this.diff(branch, added[i], direction, depth + 1), `${keyword}[${was.indexOf(branch)}]`),
      );
    return [
      ...removed.map((b) => ({
        kind: `${keyword}-branch-removed` as const,
        at: '',
        message: `${keyword} branch ${key(b)} removed`,
      })),
      ...added.map((b) => ({
        kind: `${keyword}-branch-added` as const,
        at: '',
        message: `${keyword} branch ${key(b)} added`,
      })),
    ];
  }

  private allOfChanges(old: Schema, neu: Schema, direction: Direction, depth: number): SchemaChange[] {
    const was = Array.isArray(old.allOf) ? (old.allOf as unknown[]) : [];
    const is = Array.isArray(neu.allOf) ? (neu.allOf as unknown[]) : [];
    if (was.length !== is.length)
      return [{ kind: 'allOf-changed', at: '', message: `allOf has ${is.length} schemas, had ${was.length}` }];
    return was.flatMap((branch, i) => this.nested(this.diff(branch, is[i], direction, depth + 1), `allOf[${i}]`));
  }
}
