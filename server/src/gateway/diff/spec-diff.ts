import { pointerOf } from '../model/json-pointer.js';
import { verdictOf, type ChangeKind, type ChangeVerdict, type Direction } from './change-kinds.js';
import { SchemaDiffer, type SchemaChange } from './schema-diff.js';

/** One change between two versions of a spec. */
export interface SpecChange {
  verdict: ChangeVerdict;
  kind: ChangeKind;
  /** Where, for people: `GET /orders response 200 application/json items[].id`. */
  where: string;
  /** The JSON pointer of the changed element in the document (the old one for a removal). */
  pointer: string;
  message: string;
}

type Node = Record<string, unknown>;

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function record(value: unknown): Node {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : {};
}

/** `/orders/{id}` and `/orders/{orderId}` are one path to a client: the names of path parameters do not count. */
function pathKey(template: string): string {
  return template.replace(/\{[^}]*\}/g, '{}');
}

/** The position of each path parameter in its template: a renamed path parameter is the same parameter. */
function pathParameterKey(template: string, name: string): string {
  const names = [...template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const index = names.indexOf(name);
  return index < 0 ? `path ${name}` : `path #${index}`;
}

function securityKeys(requirements: unknown): Set<string> {
  if (!Array.isArray(requirements)) return new Set();
  return new Set(
    requirements.map((r) =>
      Object.entries(record(r))
        .map(
          ([scheme, scopes]) =>
            `${scheme}${Array.isArray(scopes) && scopes.length ? `(${[...scopes].sort().join(' ')})` : ''}`,
        )
        .sort()
        .join(' + '),
    ),
  );
}

/**
 * Compares two versions of an OpenAPI 3.0 or 3.1 document (internal `$ref`s are followed; a bundled spec has
 * only those) and lists every change with its verdict: what a client built on the old version breaks on, and
 * what it does not. Pure and synchronous; the callers run it after a load, off the request path.
 */
export function diffSpecs(oldDocument: unknown, newDocument: unknown): SpecChange[] {
  const diff = new SpecDiff(record(oldDocument), record(newDocument));
  for (const _ of diff.walk());
  return diff.changes;
}

/**
 * {@link diffSpecs} in slices of about `sliceMs` of work, each on its own turn of the event loop: in the server,
 * the comparison of a 20 000-path spec never holds requests for longer than a slice.
 */
export async function diffSpecsInSlices(
  oldDocument: unknown,
  newDocument: unknown,
  sliceMs = 10,
): Promise<SpecChange[]> {
  const diff = new SpecDiff(record(oldDocument), record(newDocument));
  let sliceStart = performance.now();
  for (const _ of diff.walk()) {
    if (performance.now() - sliceStart < sliceMs) continue;
    await new Promise((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  }
  return diff.changes;
}

class SpecDiff {
  /** The changes found so far. */
  readonly changes: SpecChange[] = [];
  private readonly schemas: SchemaDiffer;

  constructor(
    private readonly old: Node,
    private readonly neu: Node,
  ) {
    this.schemas = new SchemaDiffer(old, neu);
  }

  /** Compares the documents, one path at a time: each step yields, so a caller may pause between paths. */
  *walk(): Generator<void> {
    this.servers();
    const oldPaths = new Map(Object.entries(record(this.old.paths)).map(([p, item]) => [pathKey(p), { p, item }]));
    const newPaths = new Map(Object.entries(record(this.neu.paths)).map(([p, item]) => [pathKey(p), { p, item }]));
    for (const [key, { p, item }] of oldPaths) {
      const now = newPaths.get(key);
      if (!now) this.add('path-removed', p, ['paths', p], `path ${p} removed`);
      else this.pathItem(p, record(this.deref(this.old, item)), now.p, record(this.deref(this.neu, now.item)));
      yield;
    }
    for (const [key, { p }] of newPaths)
      if (!oldPaths.has(key)) this.add('path-added', p, ['paths', p], `path ${p} added`);
  }

  private add(kind: ChangeKind, where: string, tokens: string[], message: string, direction?: Direction): void {
    this.changes.push({ verdict: verdictOf(kind, direction), kind, where, pointer: pointerOf(tokens), message });
  }

  private addSchema(changes: SchemaChange[], direction: Direction, where: string, tokens: string[]): void {
    for (const c of changes) this.add(c.kind, c.at ? `${where} ${c.at}` : where, tokens, c.message, direction);
  }

  private deref(document: Node, value: unknown): unknown {
    return this.schemas.resolve(document, value);
  }

  private servers(): void {
    const urls = (doc: Node) => (Array.isArray(doc.servers) ? doc.servers.map((s) => String(record(s).url)) : []);
    const was = urls(this.old);
    const is = urls(this.neu);
    if (was[0] !== undefined && is[0] !== undefined && was[0] !== is[0])
      this.add('server-url-changed', 'servers', ['servers', '0', 'url'], `server URL ${was[0]} became ${is[0]}`);
    for (const url of was.slice(1))
      if (!is.includes(url)) this.add('server-removed', 'servers', ['servers'], `server ${url} removed`);
    for (const url of is.slice(1))
      if (!was.includes(url)) this.add('server-added', 'servers', ['servers'], `server ${url} added`);
  }

  private pathItem(oldPath: string, oldItem: Node, newPath: string, newItem: Node): void {
    for (const method of methods) {
      const where = `${method.toUpperCase()} ${newPath}`;
      const was = oldItem[method];
      const is = newItem[method];
      if (was && !is) this.add('operation-removed', where, ['paths', oldPath, method], `operation ${where} removed`);
      if (!was && is) this.add('operation-added', where, ['paths', newPath, method], `operation ${where} added`);
      if (!was || !is) continue;
      const context = { where, tokens: ['paths', newPath, method], oldPath, newPath };
      this.operation(context, { item: oldItem, op: record(was) }, { item: newItem, op: record(is) });
    }
  }

  private operation(context: OperationContext, old: Side, neu: Side): void {
    const { where, tokens } = context;
    if (old.op.operationId !== neu.op.operationId)
      this.add(
        'operation-id-changed',
        where,
        [...tokens, 'operationId'],
        `operationId ${String(old.op.operationId)} became ${String(neu.op.operationId)}`,
      );
    if (old.op.deprecated !== true && neu.op.deprecated === true)
      this.add('operation-deprecated', where, [...tokens, 'deprecated'], `operation ${where} deprecated`);
    this.security(where, tokens, old.op.security ?? this.old.security, neu.op.security ?? this.neu.security);
    this.parameters(context, old, neu);
    this.requestBody(where, tokens, old.op.requestBody, neu.op.requestBody);
    this.responses(where, tokens, record(old.op.responses), record(neu.op.responses));
  }

  private security(where: string, tokens: string[], was: unknown, is: unknown): void {
    const wasKeys = securityKeys(was);
    const isKeys = securityKeys(is);
    const open = (keys: Set<string>) => keys.size === 0 || keys.has('');
    const at = [...tokens, 'security'];
    if (open(wasKeys) && !open(isKeys))
      return this.add('security-added', where, at, `now requires ${[...isKeys].join(' or ')}`);
    if (!open(wasKeys) && open(isKeys))
      return this.add('security-removed', where, at, 'no longer requires credentials');
    if ([...wasKeys].some((k) => !isKeys.has(k)))
      return this.add(
        'security-changed',
        where,
        at,
        `requires ${[...isKeys].join(' or ')} (was ${[...wasKeys].join(' or ')})`,
      );
    if ([...isKeys].some((k) => !wasKeys.has(k)))
      this.add(
        'security-alternative-added',
        where,
        at,
        `also accepts ${[...isKeys].filter((k) => !wasKeys.has(k)).join(' or ')}`,
      );
  }

  private parametersOf(document: Node, template: string, side: Side): Map<string, Node> {
    const byKey = new Map<string, Node>();
    for (const list of [side.item.parameters, side.op.parameters]) {
      if (!Array.isArray(list)) continue;
      for (const raw of list) {
        const parameter = record(this.deref(document, raw));
        const name = String(parameter.name);
        byKey.set(
          parameter.in === 'path' ? pathParameterKey(template, name) : `${String(parameter.in)} ${name}`,
          parameter,
        );
      }
    }
    return byKey;
  }

  private parameters(context: OperationContext, old: Side, neu: Side): void {
    const { where, tokens } = context;
    const was = this.parametersOf(this.old, context.oldPath, old);
    const is = this.parametersOf(this.neu, context.newPath, neu);
    const at = [...tokens, 'parameters'];
    const label = (p: Node) => `${where} parameter ${String(p.in)} ${String(p.name)}`;
    for (const [key, p] of was) {
      const now = is.get(key);
      if (!now) {
        const moved = [...is.values()].find((q) => q.name === p.name && !was.has(`${String(q.in)} ${String(q.name)}`));
        if (moved)
          this.add(
            'parameter-location-changed',
            label(p),
            at,
            `parameter ${String(p.name)} moved from ${String(p.in)} to ${String(moved.in)}`,
          );
        else this.add('parameter-removed', label(p), at, `parameter ${String(p.name)} removed`);
        continue;
      }
      if (p.required !== true && now.required === true)
        this.add('parameter-made-required', label(p), at, `parameter ${String(p.name)} made required`);
      if (p.required === true && now.required !== true)
        this.add('parameter-made-optional', label(p), at, `parameter ${String(p.name)} made optional`);
      if (p.deprecated !== true && now.deprecated === true)
        this.add('parameter-deprecated', label(p), at, `parameter ${String(p.name)} deprecated`);
      this.addSchema(this.schemas.diff(p.schema, now.schema, 'request'), 'request', label(p), at);
    }
    for (const [key, p] of is) {
      if (
        was.has(key) ||
        [...was.values()].some((q) => q.name === p.name && !is.has(`${String(q.in)} ${String(q.name)}`))
      )
        continue;
      const required = p.required === true;
      this.add(
        required ? 'parameter-added-required' : 'parameter-added',
        label(p),
        at,
        `${required ? 'required' : 'optional'} parameter ${String(p.name)} added`,
      );
    }
  }

  private requestBody(where: string, tokens: string[], rawOld: unknown, rawNew: unknown): void {
    const at = [...tokens, 'requestBody'];
    const label = `${where} request body`;
    if (rawOld === undefined && rawNew === undefined) return;
    const was = record(this.deref(this.old, rawOld));
    const is = record(this.deref(this.neu, rawNew));
    if (rawNew === undefined) return this.add('request-body-removed', label, at, 'request body removed');
    if (rawOld === undefined) {
      const required = is.required === true;
      return this.add(
        required ? 'request-body-added-required' : 'request-body-added',
        label,
        at,
        `${required ? 'required' : 'optional'} request body added`,
      );
    }
    if (was.required !== true && is.required === true)
      this.add('request-body-made-required', label, at, 'request body made required');
    if (was.required === true && is.required !== true)
      this.add('request-body-made-optional', label, at, 'request body made optional');
    this.content('request', label, [...at, 'content'], record(was.content), record(is.content));
  }

  private content(direction: Direction, label: string, at: string[], was: Node, is: Node): void {
    for (const media of Object.keys(was)) {
      const tokens = [...at, media];
      if (!Object.hasOwn(is, media)) {
        this.add(`${direction}-media-type-removed`, label, tokens, `media type ${media} removed`);
        continue;
      }
      const changes = this.schemas.diff(record(was[media]).schema, record(is[media]).schema, direction);
      this.addSchema(changes, direction, `${label} ${media}`, [...tokens, 'schema']);
    }
    for (const media of Object.keys(is))
      if (!Object.hasOwn(was, media))
        this.add(`${direction}-media-type-added`, label, [...at, media], `media type ${media} added`);
  }

  private responses(where: string, tokens: string[], was: Node, is: Node): void {
    for (const status of Object.keys(was)) {
      const label = `${where} response ${status}`;
      const at = [...tokens, 'responses', status];
      if (!Object.hasOwn(is, status)) {
        this.add('response-status-removed', label, at, `response ${status} removed`);
        continue;
      }
      const old = record(this.deref(this.old, was[status]));
      const neu = record(this.deref(this.neu, is[status]));
      this.content('response', label, [...at, 'content'], record(old.content), record(neu.content));
      this.headers(label, [...at, 'headers'], record(old.headers), record(neu.headers));
    }
    for (const status of Object.keys(is))
      if (!Object.hasOwn(was, status))
        this.add(
          'response-status-added',
          `${where} response ${status}`,
          [...tokens, 'responses', status],
          `response ${status} added`,
        );
  }

  private headers(label: string, at: string[], was: Node, is: Node): void {
    const lower = (headers: Node) =>
      new Map(Object.entries(headers).map(([name, h]) => [name.toLowerCase(), { name, h }]));
    const wasByName = lower(was);
    const isByName = lower(is);
    for (const [key, { name, h }] of wasByName) {
      const now = isByName.get(key);
      if (!now) {
        this.add('response-header-removed', `${label} header ${name}`, [...at, name], `header ${name} removed`);
        continue;
      }
      const schemaOf = (document: Node, header: unknown) => record(this.deref(document, header)).schema;
      const changes = this.schemas.diff(schemaOf(this.old, h), schemaOf(this.neu, now.h), 'response');
      this.addSchema(changes, 'response', `${label} header ${name}`, [...at, name]);
    }
    for (const [key, { name }] of isByName)
      if (!wasByName.has(key))
        this.add('response-header-added', `${label} header ${name}`, [...at, name], `header ${name} added`);
  }
}

interface Side {
  item: Node;
  op: Node;
}

interface OperationContext {
  where: string;
  tokens: string[];
  oldPath: string;
  newPath: string;
}
