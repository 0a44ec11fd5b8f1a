// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SpecChangeInfo, SpecChangesReport } from '../../../server/src/contract/index.js';
import { editorMarkers } from '../editor/markers-store.js';
import { renderOverEvents } from '../platform/workbench.test-support.js';
import { ChangesPanel } from './ChangesPanel.js';
import { ProblemsPanel } from './ProblemsPanel.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  act(() => editorMarkers.set('specs/orders.yaml', []));
});

const rows = () => screen.queryAllByRole('row').map((row) => row.textContent);

describe('ProblemsPanel', () => {
  it("lists the server's findings and the editor's by file, severity and line, a shared one once", async () => {
    const { emit, workbench } = renderOverEvents(<ProblemsPanel />);
    expect(screen.getByText('No problems in the workspace.')).toBeTruthy();
    emit('diagnostics', {
      diagnostics: [
        {
          path: 'specs/orders.yaml',
          severity: 'warning',
          message: 'operation has no tags',
          line: 9,
          column: 5,
          source: 'lint',
          rule: 'operation-tags',
        },
        {
          path: 'specs/orders.yaml',
          severity: 'error',
          message: 'invalid YAML: Unexpected scalar at line 3, column 1:',
          line: 3,
          column: 1,
        },
        { path: 'handlers/orders_handler.ts', severity: 'error', message: 'cannot load', line: 1 },
      ],
    });
    act(() =>
      editorMarkers.set('specs/orders.yaml', [
        {
          path: 'specs/orders.yaml',
          severity: 'error',
          message: 'Unexpected scalar',
          line: 3,
          column: 1,
          source: 'yaml',
        },
      ]),
    );
    expect(rows()).toEqual([
      'cannot loadhandlers/orders_handler.ts:1:1server',
      'Unexpected scalarspecs/orders.yaml:3:1yaml, server',
      'operation has no tagsspecs/orders.yaml:9:5lint(operation-tags)',
    ]);
    fireEvent.keyDown(screen.getAllByRole('row')[2], { key: 'Enter' });
    expect(workbench.openFile).toHaveBeenCalledWith('specs/orders.yaml', { line: 9, column: 5 });
  });
});

describe('ChangesPanel', () => {
  const report = (path: string, breaking: number, time: number): SpecChangesReport => ({
    path,
    time,
    breaking,
    changes: (
      [
        {
          verdict: 'breaking',
          kind: 'property-removed',
          where: 'GET /orders response 200 [].id',
          pointer: '/x',
          message: 'id removed',
        },
        {
          verdict: 'non-breaking',
          kind: 'property-added',
          where: 'GET /orders response 200 [].note',
          pointer: '/y',
          message: 'note added',
        },
      ] satisfies SpecChangeInfo[]
    ).slice(breaking ? 0 : 1),
  });

  it('shows each save of a spec with its breaking changes, the latest first and open', () => {
    const { emit, workbench } = renderOverEvents(<ChangesPanel />);
    expect(screen.getByText('No changes yet: each save of a spec is compared with its last version.')).toBeTruthy();
    emit('changes', report('specs/orders.yaml', 0, 1));
    emit('changes', report('specs/cart.yaml', 1, 2));
    const saves = screen.getAllByRole('group');
    expect(saves.map((d) => d.querySelector('summary')?.textContent?.split(' · ').slice(0, 2).join(' · '))).toEqual([
      '1 breaking change since the last version, 1 non-breaking · specs/cart.yaml',
      '1 non-breaking change since the last version · specs/orders.yaml',
    ]);
    expect(saves.map((d) => (d as HTMLDetailsElement).open)).toEqual([true, false]);
    fireEvent.click(screen.getByText('id removed'));
    expect(workbench.openFile).toHaveBeenCalledWith('specs/cart.yaml');
    // A new save of a spec replaces its earlier report.
    emit('changes', report('specs/orders.yaml', 1, 3));
    expect(screen.getAllByRole('group').map((d) => d.querySelector('summary')?.textContent?.split(' · ')[1])).toEqual([
      'specs/orders.yaml',
      'specs/cart.yaml',
    ]);
  });
});
