import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../core/logger.js';
import type { Gateway } from '../gateway.js';
import type { WorkspaceUnit } from '../route-table.js';
import { SpecChanges, type SpecChangeReport } from './spec-changes.js';

function spec(file: string, statuses: string[]): WorkspaceUnit {
  const responses = Object.fromEntries(statuses.map((s) => [s, { description: s }]));
  const document = { openapi: '3.0.3', paths: { '/orders': { get: { responses } } } };
  return { kind: 'spec', file, mount: 'orders', routes: [], document, warnings: [] };
}

/** A gateway as far as SpecChanges sees it: its loaded units and its `reload` event. */
class FakeGateway extends EventEmitter {
  loadedUnits: WorkspaceUnit[] = [];
  load(...units: WorkspaceUnit[]) {
    this.loadedUnits = units;
    this.emit('reload', {});
  }
}

function setUp() {
  const gateway = new FakeGateway();
  const log = { info: vi.fn(), warn: vi.fn() };
  const changes = new SpecChanges(gateway as unknown as Gateway, log as unknown as Logger);
  const reports: SpecChangeReport[] = [];
  changes.subscribe((report) => reports.push(report));
  return { gateway, log, changes, reports };
}

describe('SpecChanges', () => {
  it('compares nothing on the first load, then each spec loaded anew with its last good version', async () => {
    const { gateway, log, changes, reports } = setUp();
    const kept = spec('kept.yaml', ['200']);
    gateway.load(spec('orders.yaml', ['200', '404']), kept);
    await changes.settled();
    expect(reports).toEqual([]);
    gateway.load(spec('orders.yaml', ['200']), kept);
    // Reported after the reload, never during it.
    expect(reports).toEqual([]);
    await changes.settled();
    expect(reports).toEqual([
      expect.objectContaining({
        file: 'orders.yaml',
        breaking: 1,
        changes: [expect.objectContaining({ kind: 'response-status-removed', where: 'GET /orders response 404' })],
      }),
    ]);
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ file: 'orders.yaml', breaking: 1 }),
      'orders.yaml: 1 breaking, 0 non-breaking changes since the last version',
    );
    changes.close();
  });

  it('keeps the last good version across a failed load, and forgets a removed spec', async () => {
    const { gateway, changes, reports } = setUp();
    const first = spec('orders.yaml', ['200']);
    gateway.load(first);
    // A load that fails keeps the last good unit: the same object, nothing to compare.
    gateway.load(first);
    gateway.load();
    gateway.load(spec('orders.yaml', ['200', '201']));
    await changes.settled();
    expect(reports).toEqual([]);
    gateway.load(spec('orders.yaml', ['200', '201', '202']));
    await changes.settled();
    expect(reports.map((r) => [r.breaking, r.changes.map((c) => c.kind)])).toEqual([[0, ['response-status-added']]]);
    changes.close();
    gateway.load(spec('orders.yaml', []));
    await changes.settled();
    expect(reports).toHaveLength(1);
  });

  it(
    'compares in the worker when both versions came as JSON text, and a failed comparison stops no other',
    {
      timeout: 60_000,
    },
    async () => {
      const { gateway, log, changes, reports } = setUp();
      const asText = (unit: WorkspaceUnit, json = JSON.stringify(unit.document)) => ({ ...unit, documentJson: json });
      const broken = asText(spec('broken.yaml', ['200']), '{not json');
      gateway.load(asText(spec('orders.yaml', ['200', '404'])), asText(spec('broken.yaml', ['200'])));
      await changes.settled();
      // The worker's answer is the only one: the main thread's copy of the documents says otherwise.
      const orders = { ...asText(spec('orders.yaml', ['200'])), document: { openapi: '3.0.3', paths: {} } };
      gateway.load(orders, broken);
      await changes.settled();
      expect(reports).toEqual([
        expect.objectContaining({
          file: 'orders.yaml',
          changes: [expect.objectContaining({ kind: 'response-status-removed', where: 'GET /orders response 404' })],
        }),
      ]);
      expect(log.warn).toHaveBeenCalledWith({ file: 'broken.yaml' }, expect.stringMatching(/^cannot compare broken/));
      changes.close();
    },
  );
});
