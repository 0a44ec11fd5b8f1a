import { useEffect, useRef } from 'react';
import { actions, explorerKeys } from './actions.js';
import { displayShortcut } from '../platform/shortcuts.js';

/**
 * The keyboard shortcuts, in a modal dialog: Esc closes it (as the backdrop and Close do), and the focus
 * goes back to where it was when the dialog opened.
 */
export function ShortcutHelp({ onClose }: { onClose(): void }) {
  const rows = [...actions.map((a) => ({ keys: displayShortcut(a), description: a.description })), ...explorerKeys];
  const closeButton = useRef<HTMLButtonElement>(null);
  // The parent passes a new function at every render: the key listener reads the latest, set up once.
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      close.current();
    };
    // Capture: the editor or a panel under the dialog must not take this Esc as its own.
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        onClick={(e) => e.stopPropagation()}
      >
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
        <button type="button" ref={closeButton} onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
