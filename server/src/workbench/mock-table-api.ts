import type { FastifyInstance } from 'fastify';
import { stringify } from 'yaml';
import type { MockTableRequest, MockTableRoute, MockTableView, SpecEditProposal } from '../contract/index.js';
import { httpError } from '../core/errors.js';
import { isObject } from '../core/json.js';
import { mockTableName, parseMockTable, type Gateway } from '../gateway/index.js';
import { readWorkspaceFile } from './workspace-files.js';
import { resolveWorkspacePath, type WorkspaceArea } from './workspace-paths.js';

const tableBody = {
  type: 'object',
  properties: { mount: { type: 'string' }, routes: { type: 'object' } },
  required: ['mount', 'routes'],
  additionalProperties: false,
} as const;
const mountQuery = { type: 'object', properties: { mount: { type: 'string' } }, required: ['mount'] } as const;

/** A spec's routes (the keys of its table) with their declared responses and the names of their examples. */
function routesOf(unit: Gateway['loadedUnits'][number]): Omit<MockTableRoute, 'row'>[] {
  const prefix = unit.mount === '' ? '' : `/${unit.mount}`;
  const resolve = (value: unknown): unknown => {
    const ref = isObject(value) && typeof value.$ref === 'string' ? value.$ref : undefined;
    if (!ref?.startsWith('#/')) return value;
    let node: unknown = unit.document;
    for (const token of ref.slice(2).split('/')) node = isObject(node) ? node[token.replace(/~1/g, '/')] : undefined;
    return node;
  };
  return unit.routes
    .filter((entry) => entry.source === 'spec' && entry.operation)
    .map((entry) => {
      const responses = resolve(entry.operation!.responses);
      return {
        key: `${entry.method} ${entry.path.slice(prefix.length) || '/'}`,
        responses: Object.entries(isObject(responses) ? responses : {}).map(([status, raw]) => {
          const response = resolve(raw);
          const content = isObject(response) && isObject(response.content) ? response.content : {};
          const names = Object.values(content).flatMap((media) =>
            isObject(media) && isObject(media.examples) ? Object.keys(media.examples) : [],
          );
          return { status, examples: [...new Set(names)] };
        }),
      };
    });
}

/**
 * The per-route mock table of a spec (`/api/workbench/mock/table`): its routes with their responses, examples and
 * current rows, and the checked text of a new table, which the workbench saves through the file API like any edit.
 */
export function mockTableRoutes(api: FastifyInstance, gateway: Gateway, areas: WorkspaceArea[]): void {
  const specAt = (mount: string) => {
    const unit = gateway.loadedUnits.find((u) => u.kind === 'spec' && u.mount === mount);
    if (!unit) throw httpError('SPEC_NOT_LOADED', [`is mounted at "${mount}"`]);
    return { unit, path: `specs/${mockTableName(unit.file)}` };
  };
  const textOf = async (path: string) =>
    readWorkspaceFile(resolveWorkspacePath(areas, path)).then(
      (file) => file.content,
      () => '',
    );

  api.get<{ Querystring: { mount: string } }>(
    '/mock/table',
    { schema: { querystring: mountQuery } },
    async (request): Promise<MockTableView> => {
      const { unit, path } = specAt(request.query.mount);
      const parsed = parseMockTable(await textOf(path));
      const rows = 'table' in parsed ? parsed.table : undefined;
      const routes = routesOf(unit).map((route) => {
        const row = rows?.get(route.key)?.row;
        return { ...route, ...(row ? { row } : {}) };
      });
      const problem = 'fault' in parsed ? `line ${parsed.fault.line}: ${parsed.fault.message}` : undefined;
      return { mount: unit.mount, path, routes, ...(problem ? { problem } : {}) };
    },
  );

  api.post<{ Body: MockTableRequest }>(
    '/mock/table',
    { schema: { body: tableBody } },
    async (request): Promise<SpecEditProposal> => {
      const { unit, path } = specAt(request.body.mount);
      const keys = new Set(routesOf(unit).map((route) => route.key));
      const unknown = Object.keys(request.body.routes).filter((key) => !keys.has(key));
      if (unknown.length > 0) throw httpError('BAD_REQUEST', [`no operation of the spec is ${unknown.join(', ')}`]);
      const proposed =
        `# Mock table of specs/${unit.file}: per route, the answer, faults and rules (see docs/mocking.md).\n` +
        stringify({ routes: request.body.routes });
      const parsed = parseMockTable(proposed);
      if ('fault' in parsed) throw httpError('BAD_REQUEST', [`mock table: ${parsed.fault.message}`]);
      return { path, original: await textOf(path), proposed };
    },
  );
}
