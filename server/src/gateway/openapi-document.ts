import type { RouteTable, WorkspaceUnit } from './route-table.js';
import { escapeToken } from './model/json-pointer.js';
import { bundledKey } from './model/document-keys.js';
import { gatewayPrefix } from './model/mount.js';
import { overriddenOperation } from './overridden-operation.js';
import { copyJson } from './json-copy.js';
import { isObject } from '../core/json.js';
import { nextTurn } from '../core/next-turn.js';

type Json = Record<string, unknown>;

/** The security schemes of the service document: documentation of what the platform gateway accepts. */
export const securitySchemes = {
  df_basic: { type: 'http', scheme: 'basic', description: 'HTTP Basic: username and password' },
  df_bearer_jwt: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A JWT access token issued by the identity provider',
  },
};

/** Deep-copies `value`, rewriting every internal `$ref` with `rewrite`. */
function copyWithRefs(value: unknown, rewrite: (ref: string) => string): unknown {
  return copyJson(value, (key, member) =>
    key === '$ref' && typeof member === 'string' ? { value: rewrite(member) } : undefined,
  );
}

/**
 * The JSON text of the parts of merged documents, by the part of a loaded spec it was made from and the
 * renaming it was made with. A reload keeps the units (and their documents) of unchanged files, so the next
 * document reuses their text: one changed spec in a workspace of hundreds costs its own parts, not everyone's.
 * Only the text is kept (the copy it was serialised from is not), and it goes with the unit.
 */
const texts = new WeakMap<object, Map<string, string>>();

/** The JSON text of `make()`, made once per `source` and `key` (what else the result depends on). */
function keptText(source: object, key: string, make: () => unknown): string {
  let byKey = texts.get(source);
  if (!byKey) texts.set(source, (byKey = new Map()));
  let text = byKey.get(key);
  if (text === undefined) byKey.set(key, (text = JSON.stringify(make())));
  return text;
}

/**
 * Parts (operations, specs' components) made between two turns of the event loop: the first document after a
 * start or a full reload (10,000 operations) is built in slices, so the requests that arrive meanwhile are served
 * between them instead of waiting for it whole.
 */
const partsPerTurn = 256;

/** Counts parts made and, every {@link partsPerTurn}, lets the event loop turn. */
function slicer(): () => Promise<void> | undefined {
  let made = 0;
  return () => (++made % partsPerTurn === 0 ? nextTurn() : undefined);
}

/** `{"key":text,...}` from members whose values are JSON text already. */
function objectText(members: Iterable<[string, string]>): string {
  const parts: string[] = [];
  for (const [key, text] of members) parts.push(`${JSON.stringify(key)}:${text}`);
  return `{${parts.join(',')}}`;
}

/** A prefix unique to a file, as component names allow (`^[a-zA-Z0-9._-]+$`): its name without the extension. */
const componentPrefix = (file: string) => file.replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9._-]/g, '_');

/** One spec's (or Python handler's) components, by kind, as its own document has them. */
function ownComponents(unit: WorkspaceUnit): Array<[string, Json]> {
  const components = isObject(unit.document!.components) ? unit.document!.components : {};
  return Object.entries(components).filter((entry): entry is [string, Json] => isObject(entry[1]));
}

/** How a unit's `$ref`s are rewritten in the merged document, and a key that changes when that does. */
interface Renaming {
  rewrite: (ref: string) => string;
  rename: (kind: string, name: string) => string;
  key: string;
}

/**
 * The renaming of each documented unit: a component whose name another unit uses too becomes
 * `<file>.<name>`; bundled parts go under the file's prefix.
 */
function renamings(documented: readonly WorkspaceUnit[]): Map<string, Renaming> {
  const owners = new Map<string, number>();
  for (const unit of documented)
    for (const [kind, entries] of ownComponents(unit))
      for (const name of Object.keys(entries)) owners.set(`${kind}/${name}`, (owners.get(`${kind}/${name}`) ?? 0) + 1);
  const result = new Map<string, Renaming>();
  for (const unit of documented) {
    const prefix = componentPrefix(unit.file);
    const shared = (kind: string, name: string) => (owners.get(`${kind}/${name}`) ?? 0) > 1;
    const rename = (kind: string, name: string) => (shared(kind, name) ? `${prefix}.${name}` : name);
    const rewrite = (ref: string): string => {
      const component = /^#\/components\/([^/]+)\/([^/]+)(.*)$/.exec(ref);
      if (component) {
        const name = decodeURIComponent(component[2]).replace(/~1/g, '/').replace(/~0/g, '~');
        return `#/components/${component[1]}/${escapeToken(rename(component[1], name))}${component[3]}`;
      }
      if (ref.startsWith(`#/${bundledKey}/`))
        return `#/components/${bundledKey}/${escapeToken(prefix)}/${ref.slice(bundledKey.length + 3)}`;
      return ref;
    };
    // The names of this unit that are renamed: its copies stay good while they are the same.
    const renamed = ownComponents(unit).flatMap(([kind, entries]) =>
      Object.keys(entries)
        .filter((name) => shared(kind, name))
        .map((name) => `${kind}/${name}`),
    );
    result.set(unit.file, { rewrite, rename, key: `${prefix}|${renamed.join(',')}` });
  }
  return result;
}

/** The `components` of the merged document: the security schemes, then each unit's, renamed where shared. */
async function componentsText(documented: readonly WorkspaceUnit[], renaming: Map<string, Renaming>): Promise<string> {
  const components = new Map<string, Map<string, string>>([
    [
      'securitySchemes',
      new Map(Object.entries(securitySchemes).map(([name, scheme]) => [name, JSON.stringify(scheme)])),
    ],
  ]);
  const membersOf = (kind: string) => {
    let members = components.get(kind);
    if (!members) components.set(kind, (members = new Map()));
    return members;
  };
  const slice = slicer();
  for (const unit of documented) {
    await slice();
    const { rename, rewrite, key } = renaming.get(unit.file)!;
    for (const [kind, entries] of ownComponents(unit)) {
      if (kind === 'securitySchemes') continue;
      const members = membersOf(kind);
      for (const [name, entry] of Object.entries(entries))
        members.set(
          rename(kind, name),
          isObject(entry) ? keptText(entry, key, () => copyWithRefs(entry, rewrite)) : JSON.stringify(entry),
        );
    }
    const bundled = unit.document![bundledKey];
    if (isObject(bundled))
      membersOf(bundledKey).set(
        componentPrefix(unit.file),
        keptText(bundled, key, () => copyWithRefs(bundled, rewrite)),
      );
  }
  return objectText([...components].map(([kind, members]) => [kind, objectText(members)]));
}

/** The `paths` of the merged document: every documented route's operation, its `$ref`s renamed as its file's. */
async function pathsText(
  table: Pick<RouteTable, 'entries' | 'overridden'>,
  renaming: Map<string, Renaming>,
): Promise<string> {
  const unrenamed: Renaming = { rewrite: (ref) => ref, rename: (_kind, name) => name, key: '' };
  const paths = new Map<string, Map<string, string>>();
  const slice = slicer();
  for (const entry of table.entries) {
    if (entry.undocumented) continue;
    await slice();
    const own = renaming.get(entry.file) ?? unrenamed;
    const spec = table.overridden.get(entry);
    // A handler route that overrides a spec operation is rare and documented from both: made afresh.
    const text = spec
      ? JSON.stringify(
          withTags(
            overriddenOperation(
              copyWithRefs(spec.operation, (renaming.get(spec.file) ?? own).rewrite) as Json,
              copyWithRefs(entry.operation, own.rewrite) as Json,
            ),
            entry.path,
          ),
        )
      : keptText(entry.operation, `${own.key}|${entry.path}`, () =>
          withTags(copyWithRefs(entry.operation, own.rewrite) as Json, entry.path),
        );
    let methods = paths.get(entry.path);
    if (!methods) paths.set(entry.path, (methods = new Map()));
    methods.set(entry.method.toLowerCase(), text);
  }
  return objectText([...paths].map(([path, methods]) => [path, objectText(methods)]));
}

/**
 * One OpenAPI document for the whole gateway, as JSON text: every route of the table under `servers:
 * [routePrefix]` (`/api/adaptive`, or `/` when specs are mocked at their own paths), the components of each
 * spec and Python handler (renamed `<file>.<name>` where two files use one name), and the `df_basic` /
 * `df_bearer_jwt` security schemes. The parts of unchanged files are serialised once (see `texts`); the rest
 * are made a slice at a time (see `partsPerTurn`).
 */
export async function mergedOpenApiJson(
  table: Pick<RouteTable, 'entries' | 'overridden'>,
  units: readonly WorkspaceUnit[],
  version: string,
  routePrefix: string = gatewayPrefix,
): Promise<string> {
  const documented = units.filter((u) => u.document);
  const renaming = renamings(documented);
  const uses31 = documented.some((u) => String(u.document!.openapi).startsWith('3.1'));
  const info = {
    title: 'Adaptive gateway',
    version,
    description: 'Every API served by this gateway: routes generated from OpenAPI specs and routes of handler modules.',
  };
  return objectText([
    ['openapi', JSON.stringify(uses31 ? '3.1.0' : '3.0.3')],
    ['info', JSON.stringify(info)],
    ['servers', JSON.stringify([{ url: routePrefix || '/' }])],
    ['security', JSON.stringify([{ df_basic: [] }, { df_bearer_jwt: [] }])],
    ['paths', await pathsText(table, renaming)],
    ['components', await componentsText(documented, renaming)],
  ]);
}

/** Tags an operation that has none with its mount (the first segment of its path), as the docs group routes. */
function withTags(operation: Json, path: string): Json {
  if (!Array.isArray(operation.tags) || operation.tags.length === 0) operation.tags = [path.split('/')[1]];
  return operation;
}
