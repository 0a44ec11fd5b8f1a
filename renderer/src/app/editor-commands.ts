import { isDirty } from '../state/documents.js';
import { useWorkbench } from '../platform/workbench-context.js';

/** Saving files and closing their tabs, with the status bar's messages and the unsaved-changes question. */
export function useEditorCommands() {
  const { documents, tabs, notify } = useWorkbench();

  const save = (path: string | undefined) => {
    if (!path) return;
    documents.save(path).then(
      () => notify(`Saved ${path}`),
      (error: Error) => notify(`Cannot save ${path}: ${error.message}`, 'error'),
    );
  };

  const saveAll = () =>
    Object.values(documents.snapshot().documents)
      .filter(isDirty)
      .forEach((d) => save(d.path));

  const closeTab = (path: string) => {
    if (isDirty(documents.get(path)) && !window.confirm(`${path} has unsaved changes. Close it anyway?`)) return;
    tabs.close(path);
    documents.close(path);
  };

  return { save, saveAll, closeTab };
}
