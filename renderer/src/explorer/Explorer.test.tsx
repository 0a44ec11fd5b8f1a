// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkspaceEntry } from '../../../server/src/contract/index.js';
import { Explorer, targetFolder } from './Explorer.js';
import { useExplorerState } from './explorer-state.js';
import { file, folder } from './workspace-entries.test-support.js';

const entries = [
  {
    name: 'specs',
    path: 'specs',
    type: 'directory',
    children: [
      { name: 'team', path: 'specs/team', type: 'directory', children: [] },
      { name: 'a.openapi.yaml', path: 'specs/a.openapi.yaml', type: 'file' },
    ],
  },
  { name: 'README.md', path: 'README.md', type: 'file' },
] as unknown as WorkspaceEntry[];

describe('targetFolder', () => {
  it('is the selected folder, or the selected file’s folder', () => {
    expect(targetFolder(entries, 'specs/team')).toBe('specs/team');
    expect(targetFolder(entries, 'specs/a.openapi.yaml')).toBe('specs');
  });

  it('is specs with nothing selected or a top-level file selected', () => {
    expect(targetFolder(entries, undefined)).toBe('specs');
    expect(targetFolder(entries, 'README.md')).toBe('specs');
    expect(targetFolder([], '')).toBe('specs');
  });

  it('takes the parent of a path the tree does not know (deleted meanwhile)', () => {
    expect(targetFolder(entries, 'handlers/gone_handler.ts')).toBe('handlers');
  });
});

const workspace = [
  folder('specs', [folder('specs/team', [file('specs/team/people.openapi.yaml')]), file('specs/orders.openapi.yaml')]),
  folder('handlers', [file('handlers/orders_handler.ts')]),
  file('health.yaml'),
];

/** The explorer with the workbench's own state for it, and spies for what it asks the workbench to do. */
function renderExplorer(dirty: string[] = []) {
  const actions = { onOpen: vi.fn(), onCreate: vi.fn(), onRename: vi.fn(), onDelete: vi.fn(), onRefresh: vi.fn() };
  function Harness() {
    const state = useExplorerState();
    const [selected, setSelected] = useState<string>();
    return (
      <Explorer
        entries={workspace}
        dirtyPaths={new Set(dirty)}
        selected={selected}
        onSelect={setSelected}
        expanded={state.expanded}
        onToggle={state.toggleFolder}
        nameRequest={state.nameRequest}
        onRequestName={state.setNameRequest}
        onRequestNew={state.requestNew}
        {...actions}
      />
    );
  }
  render(<Harness />);
  return actions;
}

const tree = () => screen.getByRole('tree');
const rows = () => screen.getAllByRole('treeitem').map((row) => row.getAttribute('data-path'));
const press = (key: string) => fireEvent.keyDown(tree(), { key });

describe('Explorer', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it('shows specs and handlers open, marks an unsaved file, and opens a file or folder on click', () => {
    const { onOpen } = renderExplorer(['specs/orders.openapi.yaml']);
    expect(rows()).toEqual([
      'specs',
      'specs/team',
      'specs/orders.openapi.yaml',
      'handlers',
      'handlers/orders_handler.ts',
      'health.yaml',
    ]);
    expect(screen.getByRole('treeitem', { name: 'orders.openapi.yaml, unsaved' })).toBeTruthy();
    fireEvent.click(screen.getByRole('treeitem', { name: 'team' }));
    expect(rows()).toContain('specs/team/people.openapi.yaml');
    fireEvent.click(screen.getByRole('treeitem', { name: 'people.openapi.yaml' }));
    expect(onOpen).toHaveBeenCalledWith('specs/team/people.openapi.yaml');
    expect(tree().getAttribute('aria-activedescendant')).toBe(
      screen.getByRole('treeitem', { name: 'people.openapi.yaml' }).id,
    );
  });

  it('is driven by the keyboard: entering selects the first row, arrows move and fold, Enter opens', () => {
    const { onOpen } = renderExplorer();
    fireEvent.focus(tree());
    const selected = () => screen.getByRole('treeitem', { selected: true }).getAttribute('data-path');
    expect(selected()).toBe('specs');
    press('ArrowLeft');
    expect(rows()).toEqual(['specs', 'handlers', 'handlers/orders_handler.ts', 'health.yaml']);
    press('ArrowDown');
    press('ArrowDown');
    expect(selected()).toBe('handlers/orders_handler.ts');
    press('Enter');
    expect(onOpen).toHaveBeenCalledWith('handlers/orders_handler.ts');
    press('End');
    expect(selected()).toBe('health.yaml');
    press('Home');
    expect(selected()).toBe('specs');
    // Type-ahead: the next row whose name starts with the letters typed.
    press('h');
    expect(selected()).toBe('handlers');
  });

  it('renames with F2 (Enter keeps the name typed, Escape keeps the old one) and deletes with Delete', () => {
    const { onRename, onDelete } = renderExplorer();
    fireEvent.click(screen.getByRole('treeitem', { name: 'orders_handler.ts' }));
    press('F2');
    const name = screen.getByLabelText('Name') as HTMLInputElement;
    expect(name.value).toBe('orders_handler.ts');
    fireEvent.keyDown(name, { key: 'Escape' });
    expect(onRename).not.toHaveBeenCalled();
    press('F2');
    const renamed = screen.getByLabelText('Name') as HTMLInputElement;
    fireEvent.change(renamed, { target: { value: 'billing_handler.ts' } });
    fireEvent.keyDown(renamed, { key: 'Enter' });
    expect(onRename).toHaveBeenCalledWith('handlers/orders_handler.ts', 'billing_handler.ts');
    press('Delete');
    expect(onDelete).toHaveBeenCalledWith('handlers/orders_handler.ts');
  });

  it('never renames or deletes a top folder of the workspace', () => {
    const { onDelete } = renderExplorer();
    fireEvent.click(screen.getByRole('treeitem', { name: 'handlers' }));
    press('Delete');
    press('F2');
    expect(onDelete).not.toHaveBeenCalled();
    expect(screen.queryByLabelText('Name')).toBeNull();
    expect((screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("asks for a new file's name in the selected folder, with a name fitting that folder", () => {
    const { onCreate } = renderExplorer();
    fireEvent.click(screen.getByRole('treeitem', { name: 'orders_handler.ts' }));
    fireEvent.click(screen.getByRole('button', { name: 'New file' }));
    const name = screen.getByLabelText('Name') as HTMLInputElement;
    expect(name.value).toBe('new_api_handler.ts');
    // Typed in full over the selected stem, the kind's ending is kept once.
    fireEvent.change(name, { target: { value: 'ledger_handler.ts_handler.ts' } });
    fireEvent.keyDown(name, { key: 'Enter' });
    expect(onCreate).toHaveBeenCalledWith('handlers', 'ledger_handler.ts', 'file');
  });
});
