import { ExternalStore } from '../base/external-store.js';
import { isWithin, movedPath } from './paths.js';

/** The open editor tabs, in order, and the active one. */
export interface TabsState {
  open: string[];
  active?: string;
}

/**
 * The editor tabs, beside the {@link DocumentStore} that holds their contents. Every change replaces
 * the state (for React's useSyncExternalStore) and is handed to `persist`, so tabs outlive a restart.
 */
export class TabsStore extends ExternalStore<TabsState> {
  constructor(
    state: TabsState,
    private readonly persist: (state: TabsState) => void = () => undefined,
  ) {
    super(state);
  }

  /** Shows `path` in a tab (a new one at the end unless it is open) and activates it. */
  open(path: string): void {
    const { open } = this.state;
    this.replace({ open: open.includes(path) ? open : [...open, path], active: path });
  }

  activate(path: string): void {
    this.replace({ ...this.state, active: path });
  }

  /** Closes the tab of `path`; when it was active, its neighbour (the next one, else the last) becomes active. */
  close(path: string): void {
    const index = this.state.open.indexOf(path);
    const open = this.state.open.filter((p) => p !== path);
    const active = this.state.active === path ? open[Math.min(index, open.length - 1)] : this.state.active;
    this.replace({ open, active });
  }

  /** Activates the tab `step` places after the active one, wrapping around. */
  cycle(step: number): void {
    const { open, active } = this.state;
    if (open.length === 0) return;
    const index = active ? open.indexOf(active) : 0;
    this.replace({ ...this.state, active: open[(index + step + open.length) % open.length] });
  }

  /** Follows a rename of a file or folder: tabs of `from` and of files inside it show their new paths. */
  renamed(from: string, to: string): void {
    const { open, active } = this.state;
    this.replace({ open: open.map((p) => movedPath(p, from, to)), active: active && movedPath(active, from, to) });
  }

  /** Closes the tabs of a deleted file or folder; when the active one goes, the first tab left becomes active. */
  removed(path: string): void {
    const open = this.state.open.filter((p) => !isWithin(p, path));
    const { active } = this.state;
    this.replace({ open, active: active && isWithin(active, path) ? open[0] : active });
  }

  /** The state is in place before `persist` sees it, and the subscribers are told after. */
  private replace(state: TabsState): void {
    this.replaceState(state, false);
    this.persist(state);
    this.notify();
  }
}
