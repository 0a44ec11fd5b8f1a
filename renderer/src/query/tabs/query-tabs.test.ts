import { describe, expect, it } from 'vitest';
import type { WorkspaceFile, WorkspaceFileInfo } from '../../../../server/src/contract/index.js';
import { ApiError, type WorkbenchApi } from '../../api/client.js';
import { DocumentStore } from '../../state/documents.js';
import { Drafts } from '../../state/drafts.js';
import { TabsStore } from '../../state/tabs.js';
import { saveQueryAs } from './query-commands.js';
import {
  isQueryTab,
  isQueryTabId,
  QueryTabsStore,
  readQueryTabs,
  adoptConsoleTexts,
  reconcileQueryTabs,
  savedQueryKind,
  savedQueryPath,
  type QueryTabsState,
} from './query-tabs.js';

function store(state?: QueryTabsState) {
  const saved: QueryTabsState[] = [];
  return { queries: new QueryTabsStore(state ?? readQueryTabs(undefined), (s) => saved.push(s)), saved };
}

describe('QueryTabsStore', () => {
  it('opens several tabs, each with its own kind and text, and numbers their titles', () => {
    const { queries } = store();
    const sql = queries.create('sql');
    const sparql = queries.create('sparql', 'SELECT ?s WHERE { ?s ?p ?o }');
    queries.edit(sql, 'SELECT 1');
    expect(queries.get(sql)).toEqual({ id: sql, title: 'Query 1', kind: 'sql', text: 'SELECT 1' });
    expect(queries.get(sparql)).toMatchObject({
      title: 'Query 2',
      kind: 'sparql',
      text: 'SELECT ?s WHERE { ?s ?p ?o }',
    });
    queries.setKind(sql, 'nl');
    expect(queries.get(sql)?.kind).toBe('nl');
    expect(isQueryTabId(sql) && isQueryTabId(sparql) && sql !== sparql).toBe(true);
  });

  it('forgets a closed tab and its session, and does not reuse its title', () => {
    const { queries } = store();
    const first = queries.create('sql');
    queries.sessionOf(first).set('query-outcome', { error: 'x' });
    queries.close(first);
    expect(queries.get(first)).toBeUndefined();
    expect(queries.sessionOf(first).has('query-outcome')).toBe(false);
    expect(queries.get(queries.create('sql'))?.title).toBe('Query 2');
    // Changes to a tab that is not open change nothing.
    queries.edit(first, 'lost');
    expect(queries.get(first)).toBeUndefined();
  });

  it('gives each tab its own session, so tabs do not share their results', () => {
    const { queries } = store();
    const [a, b] = [queries.create('sql'), queries.create('sql')];
    queries.sessionOf(a).set('query-outcome', { error: 'only a' });
    expect(queries.sessionOf(b).has('query-outcome')).toBe(false);
    expect(queries.sessionOf(a)).toBe(queries.sessionOf(a));
  });

  it('hands every change to persist, and the persisted state reads back the same after a reload', () => {
    const { queries, saved } = store();
    const id = queries.create('sparql', 'ASK {}');
    queries.toggleWrap();
    queries.setEditorHeight(320);
    expect(saved).toHaveLength(3);
    const reloaded = readQueryTabs(JSON.parse(JSON.stringify(saved.at(-1))));
    expect(reloaded).toEqual(queries.snapshot());
    expect(reloaded.tabs[id].text).toBe('ASK {}');
    expect(reloaded.wrap).toBe(true);
  });
});

describe('readQueryTabs (stored state that cannot be trusted)', () => {
  it('drops what is unreadable and keeps the rest', () => {
    const state = readQueryTabs({
      tabs: {
        'query:1': { title: 'Query 1', kind: 'sql', text: 'SELECT 1' },
        'query:2': { title: 'Query 2', kind: 'cobol', text: 'x' },
        'query:3': { title: 'Query 3', kind: 'sql', text: 42 },
        'specs/a.yaml': { title: 'a', kind: 'sql', text: '' },
      },
      next: -5,
      wrap: 'yes',
      editorHeight: Number.NaN,
    });
    expect(Object.keys(state.tabs)).toEqual(['query:1']);
    expect(state).toMatchObject({ next: 1, wrap: false, editorHeight: 120 });
  });
  it('starts empty from nothing, a string or an array', () => {
    for (const stored of [undefined, null, 'tabs', [1, 2]]) expect(readQueryTabs(stored).tabs).toEqual({});
  });
});

describe('reconcileQueryTabs (after a restart)', () => {
  it('drops editor tabs of queries that were not kept, and queries without a tab; files stay', () => {
    const { queries } = store();
    const kept = queries.create('sql', 'SELECT 1');
    const orphan = queries.create('sparql', 'ASK {}');
    const tabs = new TabsStore({ open: ['specs/a.yaml', kept, 'query:77', 'query/saved/x.sql'], active: 'query:77' });
    reconcileQueryTabs(tabs, queries);
    expect(tabs.snapshot().open).toEqual(['specs/a.yaml', kept, 'query/saved/x.sql']);
    expect(tabs.snapshot().active).toBe('specs/a.yaml');
    expect(Object.keys(queries.snapshot().tabs)).toEqual([kept]);
    expect(queries.get(orphan)).toBeUndefined();
  });
});

describe('adoptConsoleTexts (an upgrade from the bottom-panel console)', () => {
  it('opens a tab for each kind the console held text of, and nothing for what it cannot read', () => {
    const { queries } = store();
    const tabs = new TabsStore({ open: ['specs/a.yaml'], active: 'specs/a.yaml' });
    adoptConsoleTexts({ sql: 'SELECT 1', sparql: '  ', nl: 'orders by region', cobol: 'x' }, tabs, queries);
    const opened = tabs
      .snapshot()
      .open.slice(1)
      .map((id) => queries.get(id));
    expect(opened.map((tab) => [tab?.kind, tab?.text])).toEqual([
      ['sql', 'SELECT 1'],
      ['nl', 'orders by region'],
    ]);
    for (const stored of [null, 'SELECT 1', 42, { sql: 7 }]) adoptConsoleTexts(stored, tabs, queries);
    expect(tabs.snapshot().open).toHaveLength(3);
  });
});

describe('saved query paths', () => {
  it('knows saved query files by folder and extension', () => {
    expect(savedQueryKind('query/saved/top.sql')).toBe('sql');
    expect(savedQueryKind('query/saved/nested/classes.rq')).toBe('sparql');
    expect(savedQueryKind('query/sources.yaml')).toBeUndefined();
    expect(savedQueryKind('query/other/x.sql')).toBeUndefined();
    expect(savedQueryKind('specs/saved.sql')).toBeUndefined();
    expect(isQueryTab('query/saved/top.sql')).toBe(true);
    expect(isQueryTab('query:4')).toBe(true);
    expect(isQueryTab('specs/a.openapi.yaml')).toBe(false);
    expect(isQueryTab(undefined)).toBe(false);
  });
  it('adds the extension of the kind, and refuses folders, hidden names, empty names and questions', () => {
    expect(savedQueryPath('top orders', 'sql')).toEqual({ path: 'query/saved/top orders.sql' });
    expect(savedQueryPath(' x.sql ', 'sql')).toEqual({ path: 'query/saved/x.sql' });
    expect(savedQueryPath('classes', 'sparql')).toEqual({ path: 'query/saved/classes.rq' });
    expect(savedQueryPath('../../specs/evil', 'sql')).toEqual({ error: expect.stringMatching(/plain file name/) });
    expect(savedQueryPath('a\\b', 'sql')).toEqual({ error: expect.stringMatching(/plain file name/) });
    expect(savedQueryPath('.hidden', 'sql')).toEqual({ error: expect.stringMatching(/hidden/) });
    expect(savedQueryPath('  ', 'sql')).toEqual({ error: expect.stringMatching(/needs a name/) });
    expect(savedQueryPath('q', 'nl')).toEqual({ error: expect.stringMatching(/Only SQL and SPARQL/) });
  });
});

/** A workspace API over an in-memory disk that refuses to create a file that exists, as the server does. */
function fakeDisk(files: Record<string, string> = {}) {
  const disk = { ...files };
  const info = (path: string, content: string): WorkspaceFileInfo => ({
    path,
    type: 'file',
    size: content.length,
    mtimeMs: 0,
    version: `v:${content}`,
  });
  const api = {
    create: async (path: string, _type: string, content = ''): Promise<WorkspaceFileInfo> => {
      if (path in disk) throw new ApiError(409, `${path} already exists`, undefined, 'WB_EXISTS');
      disk[path] = content;
      return info(path, content);
    },
    read: async (path: string): Promise<WorkspaceFile> => {
      if (!(path in disk)) throw new ApiError(404, `${path} does not exist`, undefined, 'WB_NOT_FOUND');
      const content = disk[path];
      return { path, content, size: content.length, mtimeMs: 0, version: `v:${content}` };
    },
  } as unknown as WorkbenchApi;
  return { disk, api };
}

describe('saveQueryAs (binding a query tab to a file)', () => {
  function workbench(files?: Record<string, string>) {
    const { disk, api } = fakeDisk(files);
    const documents = new DocumentStore(api, new Drafts(Promise.resolve(`test-${Math.random()}`)));
    const tabs = new TabsStore({ open: ['specs/a.yaml'] });
    const { queries } = store();
    const id = queries.create('sql', 'SELECT * FROM shop.orders LIMIT 10');
    tabs.open(id);
    tabs.open('specs/b.yaml');
    tabs.activate(id);
    return { disk, documents, tabs, queries, id, deps: { api, documents, tabs, store: queries } };
  }

  it('writes the file, and the tab keeps its place and results while it shows the file', async () => {
    const { disk, documents, tabs, queries, id, deps } = workbench();
    queries.sessionOf(id).set('query-outcome', { source: 'kept' });
    const path = await saveQueryAs(deps, id, 'top-orders');
    expect(path).toBe('query/saved/top-orders.sql');
    expect(disk[path]).toBe('SELECT * FROM shop.orders LIMIT 10');
    expect(tabs.snapshot()).toEqual({ open: ['specs/a.yaml', path, 'specs/b.yaml'], active: path });
    expect(queries.get(id)).toBeUndefined();
    expect(queries.sessionOf(path).get('query-outcome')).toEqual({ source: 'kept' });
    // The file is an open document now: edits mark it unsaved, as for any file.
    expect(documents.get(path)).toMatchObject({ status: 'ready', text: disk[path] });
    documents.edit(path, 'SELECT 2');
    expect(documents.get(path)?.text).not.toBe(documents.get(path)?.saved);
  });

  it('does not overwrite an existing file, and the tab stays an unsaved query', async () => {
    const { disk, tabs, queries, id, deps } = workbench({ 'query/saved/taken.sql': 'SELECT 0' });
    await expect(saveQueryAs(deps, id, 'taken')).rejects.toThrow('already exists');
    expect(disk['query/saved/taken.sql']).toBe('SELECT 0');
    expect(tabs.snapshot().active).toBe(id);
    expect(queries.get(id)?.text).toBe('SELECT * FROM shop.orders LIMIT 10');
  });

  it('refuses a name outside query/saved/ before asking the server', async () => {
    const { disk, id, deps } = workbench();
    await expect(saveQueryAs(deps, id, '../sources.yaml')).rejects.toThrow('plain file name');
    expect(Object.keys(disk)).toEqual([]);
    await expect(saveQueryAs(deps, 'query:99', 'x')).rejects.toThrow('not an open query tab');
  });
});
