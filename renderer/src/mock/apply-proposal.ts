import type { SpecEditProposal } from '../../../server/src/contract/index.js';
import type { Workbench } from '../platform/workbench-context.js';
import { modelUri } from '../editor/languages.js';
import { monaco } from '../editor/monaco-setup.js';
import { isDirty } from '../state/documents.js';

/**
 * Applies a proposed spec edit as the user's own: the file opens in a tab, the proposed text replaces the
 * editor's (one undoable edit, Ctrl+Z takes it back) and is saved through the workspace API like any save,
 * which reloads the gateway. Refused while the file has unsaved changes, which the edit would mix in.
 */
export async function applyProposal(workbench: Workbench, proposal: SpecEditProposal): Promise<void> {
  const { documents } = workbench;
  const { path, proposed } = proposal;
  if (isDirty(documents.get(path))) throw new Error(`${path} has unsaved changes: save or undo them first`);
  await documents.open(path);
  const doc = documents.get(path);
  if (!doc || doc.status !== 'ready') throw new Error(`${path} cannot be opened: ${doc?.error ?? 'unknown error'}`);
  workbench.openFile(path);
  const model = monaco.editor.getModel(monaco.Uri.parse(modelUri(path)));
  if (model && model.getValue() !== proposed) {
    model.pushStackElement();
    model.pushEditOperations([], [{ range: model.getFullModelRange(), text: proposed }], () => null);
    model.pushStackElement();
  }
  documents.edit(path, proposed);
  await documents.save(path);
}
