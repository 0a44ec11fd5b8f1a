import { ExternalStore } from '../base/external-store.js';

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
 * Monaco call so that the panel does not pull Monaco into the initial bundle. Its state is the record
 * of markers itself (what `snapshot()` returns), copied and replaced on each change.
 */
export class MarkersStore extends ExternalStore<Record<string, EditorMarker[]>> {
  constructor() {
    super({});
  }

  /** Replaces the markers of one file (none: the file drops out). */
  set(path: string, list: EditorMarker[]): void {
    const next = { ...this.state };
    if (list.length === 0) delete next[path];
    else next[path] = list;
    this.replaceState(next);
  }
}

/** The markers of every Monaco model of the page (Monaco's marker service is global to the page). */
export const editorMarkers = new MarkersStore();
