import { useState } from 'react';
import { usePersistedState } from '../state/persisted.js';
import type { NameRequest } from './Explorer.js';

/** What the explorer shows besides the tree: open folders (remembered) and the name it is asking for. */
export function useExplorerState() {
  const [expanded, setExpanded] = usePersistedState<string[]>('expanded', ['specs', 'handlers']);
  const [nameRequest, setNameRequest] = useState<NameRequest>();

  /** Opens or closes a folder; `open` forces the state, else it flips. */
  const toggleFolder = (path: string, open?: boolean) =>
    setExpanded((list) => {
      const isOpen = list.includes(path);
      const shouldOpen = open ?? !isOpen;
      if (shouldOpen === isOpen) return list;
      return shouldOpen ? [...list, path] : list.filter((p) => p !== path);
    });

  /** Opens `parent` and asks for the name of a new file or folder in it. */
  const requestNew = (kind: 'file' | 'directory', parent: string) => {
    toggleFolder(parent, true);
    setNameRequest({ kind, parent });
  };

  return { expanded, toggleFolder, nameRequest, setNameRequest, requestNew };
}
