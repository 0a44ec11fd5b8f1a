import type { RouteTable, WorkspaceUnit } from './route-table.js';
import { escapeToken } from './spec/json-pointer.js';
import { bundledKey } from './spec/document-keys.js';
import { gatewayPrefix } from './spec/mount.js';
import { overriddenOperation } from './overridden-operation.js';
import { copyJson } from './json-copy.js';
import { isObject } from '../core/json.js';

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

/** A prefix unique to a file, as component names allow (`^[a-zA-Z0-9._-]+$`): its name without the extension. */
const componentPrefix = (file: string) => file.replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9._-]/g, '_');

/**
 * Builds one OpenAPI document for the whole gateway: every route of the table under `servers:
 * [routePrefix]` (`/api/adaptive`, or `/` when specs are mocked at their own paths), the components of each spec and
 * Python handler (renamed `<file>.<name>` where two
 * files use one name),
 * and the `df_basic` / `df_bearer_jwt` security schemes.
 */
export function mergedOpenApiDocument(
  table: Pick<RouteTable, 'entries' | 'overridden'>,
  units: readonly WorkspaceUnit[],
  version: string,
  routePrefix: string = gatewayPrefix,
): Json {
  const documented = units.filter((u) => u.document);
  const owners = new Map<string, number>();
  for (const unit of documented) {
    const components = isObject(unit.document!.components) ? unit.document!.components : {};
    for (const [kind, entries] of Object.entries(components)) {
      if (!isObject(entries)) continue;
      for (const name of Object.keys(entries)) owners.set(`${kind}/${name}`, (owners.get(`${kind}/${name}`) ?? 0) + 1);
    }
  }

  const components: Record<string, Json> = { securitySchemes: { ...securitySchemes } };
  const rewriters = new Map<string, (ref: string) => string>();
  for (const unit of documented) {
    const prefix = componentPrefix(unit.file);
    const rename = (kind: string, name: string) =>
      (owners.get(`${kind}/${name}`) ?? 0) > 1 ? `${prefix}.${name}` : name;
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
    rewriters.set(unit.file, rewrite);
    const own = isObject(unit.document!.components) ? unit.document!.components : {};
    for (const [kind, entries] of Object.entries(own)) {
      if (!isObject(entries) || kind === 'securitySchemes') continue;
      components[kind] ??= {};
      for (const [name, entry] of Object.entries(entries))
        components[kind][rename(kind, name)] = copyWithRefs(entry, rewrite);
    }
    const bundled = unit.document![bundledKey];
    if (isObject(bundled)) {
      components[bundledKey] ??= {};
      components[bundledKey][prefix] = copyWithRefs(bundled, rewrite);
    }
  }

  const paths: Record<string, Json> = {};
  for (const entry of table.entries) {
    if (entry.undocumented) continue;
    const rewrite = rewriters.get(entry.file) ?? ((ref: string) => ref);
    const spec = table.overridden.get(entry);
    const own = copyWithRefs(entry.operation, rewrite) as Json;
    const operation = spec
      ? overriddenOperation(copyWithRefs(spec.operation, rewriters.get(spec.file) ?? rewrite) as Json, own)
      : own;
    const mount = entry.path.split('/')[1];
    if (!Array.isArray(operation.tags) || operation.tags.length === 0) operation.tags = [mount];
    paths[entry.path] ??= {};
    paths[entry.path][entry.method.toLowerCase()] = operation;
  }

  const uses31 = documented.some((u) => String(u.document!.openapi).startsWith('3.1'));
  return {
    openapi: uses31 ? '3.1.0' : '3.0.3',
    info: {
      title: 'Adaptive gateway',
      version,
      description:
        'Every API served by this gateway: routes generated from OpenAPI specs and routes of handler modules.',
    },
    servers: [{ url: routePrefix || '/' }],
    security: [{ df_basic: [] }, { df_bearer_jwt: [] }],
    paths,
    components,
  };
}
