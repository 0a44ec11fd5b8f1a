import { useMemo } from 'react';
import { Explorer } from '../explorer/Explorer.js';
import type { useExplorerState } from '../explorer/explorer-state.js';
import { isDirty } from '../state/documents.js';
import { Splitter } from '../platform/Splitter.js';
import { useDocuments } from '../platform/workbench-context.js';
import type { useWorkspaceCommands } from './workspace-commands.js';
import './shell.css';

export interface ExplorerPaneProps {
  workspace: ReturnType<typeof useWorkspaceCommands>;
  explorer: ReturnType<typeof useExplorerState>;
  activePath?: string;
  width: number;
  onOpen(path: string): void;
  onResize(width: number): void;
}

/** The explorer at the left of the workbench, and the splitter that resizes it. */
export function ExplorerPane({ workspace, explorer, activePath, width, onOpen, onResize }: ExplorerPaneProps) {
  const docs = useDocuments();
  const dirtyPaths = useMemo(
    () =>
      new Set(
        Object.values(docs.documents)
          .filter(isDirty)
          .map((d) => d.path),
      ),
    [docs],
  );
  return (
    <>
      <aside className="explorer-pane" style={{ width }}>
        <Explorer
          entries={workspace.tree?.entries ?? []}
          activePath={activePath}
          dirtyPaths={dirtyPaths}
          selected={workspace.selected}
          onSelect={workspace.select}
          onOpen={onOpen}
          expanded={explorer.expanded}
          onToggle={explorer.toggleFolder}
          nameRequest={explorer.nameRequest}
          onRequestName={explorer.setNameRequest}
          onRequestNew={explorer.requestNew}
          onCreate={(parent, name, kind) => void workspace.create(parent, name, kind)}
          onRename={(path, name) => void workspace.rename(path, name)}
          onDelete={(path) => void workspace.remove(path)}
          onRefresh={workspace.refreshTree}
        />
      </aside>
      <Splitter
        orientation="vertical"
        size={width}
        direction={1}
        min={160}
        max={600}
        label="Resize explorer"
        onResize={onResize}
      />
    </>
  );
}
