/** A problem the editor itself found (YAML syntax or OpenAPI schema, TypeScript) in an open file. */
export interface EditorMarker {
  path: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  line: number;
  column: number;
  source: string;
}

/**
 * The editor's own markers, by workspace path, for the problems panel. A plain store rather than a
 * Monaco call so that the panel does not pull Monaco into the initial bundle.
 */
export class MarkersStore {
  private markers: Record<string, EditorMarker[]> = {};
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): Record<string, EditorMarker[]> => this.markers;

  /** Replaces the markers of one file (none: the file drops out). */
  set(path: string, list: EditorMarker[]): void {
    const next = { ...this.markers };
    if (list.length === 0) delete next[path];
    else next[path] = list;
    this.markers = next;
    for (const listener of this.listeners) listener();
  }
}

/** The markers of every Monaco model of the page (Monaco's marker service is global to the page). */
export const editorMarkers = new MarkersStore();
