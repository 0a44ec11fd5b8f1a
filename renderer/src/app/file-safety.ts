import { useEffect } from 'react';
import type { EventStore } from '../api/event-store.js';
import { isDirty, type DocumentStore } from '../state/documents.js';

/**
 * Keeps open files in step with the disk and unsaved work from being lost: the server's file events
 * reach the documents (a clean one reloads, a dirty one gets the compare choice), and leaving the page
 * with unsaved changes asks first (the browser's own question, in a browser) after writing them to the drafts.
 */
export function useFileSafety(events: EventStore, documents: DocumentStore): void {
  useEffect(() => events.onFileChange((change) => void documents.diskChanged(change)), [events, documents]);
  useEffect(() => {
    // Electron shows no question for beforeunload: a cancelled unload would just keep the window open.
    // There the drafts alone carry unsaved work over to the next start.
    const asks = !(window as { workbench?: unknown }).workbench;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      documents.flushDrafts();
      if (!asks || !Object.values(documents.snapshot().documents).some(isDirty)) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    const pageHide = () => documents.flushDrafts();
    window.addEventListener('beforeunload', beforeUnload);
    window.addEventListener('pagehide', pageHide);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('pagehide', pageHide);
    };
  }, [documents]);
}
