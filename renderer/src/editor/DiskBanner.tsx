import type { OpenDocument } from '../state/documents.js';

export interface DiskBannerProps {
  doc: OpenDocument;
  comparing: boolean;
  onCompare(show: boolean): void;
  onResolve(choice: 'mine' | 'disk'): void;
  onDismissRestored(): void;
  onClose(): void;
}

/** What the user must know about an open file's disk version: a conflict to settle, or restored unsaved text. */
export function DiskBanner({ doc, comparing, onCompare, onResolve, onDismissRestored, onClose }: DiskBannerProps) {
  const { conflict } = doc;
  if (conflict) {
    const deleted = conflict.disk === undefined;
    const what = deleted ? 'was deleted on disk' : 'changed on disk';
    const message =
      conflict.cause === 'save'
        ? `Not saved: ${doc.path} ${what} since you opened it.`
        : `${doc.path} ${what}, and this editor has unsaved changes.`;
    return (
      <div className="banner warning notice disk-conflict" role="alert">
        <span>{message}</span>
        {!deleted && (
          <button type="button" onClick={() => onCompare(!comparing)}>
            {comparing ? 'Close compare' : 'Compare'}
          </button>
        )}
        <button
          type="button"
          onClick={() => onResolve('mine')}
          title="Keep the editor's text; saving replaces the disk"
        >
          Keep mine
        </button>
        {deleted ? (
          <button type="button" onClick={onClose}>
            Close
          </button>
        ) : (
          <button type="button" onClick={() => onResolve('disk')} title="Replace the editor's text with the disk's">
            Take disk
          </button>
        )}
      </div>
    );
  }
  if (doc.restored) {
    return (
      <div className="banner notice disk-restored" role="status">
        <span>Unsaved changes from your last session were restored; they are not saved yet.</span>
        <button type="button" onClick={onDismissRestored}>
          OK
        </button>
      </div>
    );
  }
  return null;
}
