/** A problem the editor itself found (YAML syntax or OpenAPI schema, TypeScript) in an open file. */
export interface EditorMarker {
  path: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  line: number;
  column: number;
  source: string;
}

type Listener = () => void;

let markers: Record<string, EditorMarker[]> = {};
const listeners = new Set<Listener>();

/**
 * The editor's own markers, by workspace path, for the problems panel. A plain store rather than a
 * Monaco call so that the panel does not pull Monaco into the initial bundle.
 */
export const editorMarkers = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot(): Record<string, EditorMarker[]> {
    return markers;
  },
  set(path: string, list: EditorMarker[]): void {
    const next = { ...markers };
    if (list.length === 0) delete next[path];
    else next[path] = list;
    markers = next;
    for (const listener of listeners) listener();
  },
};
