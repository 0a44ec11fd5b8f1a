import { actions, explorerKeys } from './actions.js';
import { displayKeys } from './shortcuts.js';

/** The keyboard shortcuts, in a modal dialog. */
export function ShortcutHelp({ onClose }: { onClose(): void }) {
  const rows = [...actions.map((a) => ({ keys: displayKeys(a.keys), description: a.description })), ...explorerKeys];
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div className="modal" role="dialog" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard shortcuts</h2>
        <table className="grid shortcuts">
          <tbody>
            {rows.map((s) => (
              <tr key={s.keys}>
                <td>
                  <kbd>{s.keys}</kbd>
                </td>
                <td>{s.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
