import { Component, Suspense, type ReactNode } from 'react';
import './loadable.css';

export interface LoadableProps {
  /** What loads, for the messages: "Loading the API docs…", "Cannot show the API docs: …". */
  what: string;
  children: ReactNode;
}

interface LoadableState {
  error?: Error;
}

/**
 * A part of the page that loads on demand (a lazy module): "Loading …" meanwhile; when it cannot load (the
 * server was away at that moment, or restarted with a build whose files have other names) or fails to
 * render, the reason in its place while the rest of the workbench goes on. A failed module load stays failed
 * in the browser until the page loads again, so the way back is a reload (unsaved edits are kept as drafts).
 */
export class Loadable extends Component<LoadableProps, LoadableState> {
  override state: LoadableState = {};

  static getDerivedStateFromError(error: Error): LoadableState {
    return { error };
  }

  override render(): ReactNode {
    const { what, children } = this.props;
    const { error } = this.state;
    if (!error) return <Suspense fallback={<div className="placeholder">Loading {what}…</div>}>{children}</Suspense>;
    return (
      <div className="banner error load-failed" role="alert">
        <span>
          Cannot show {what}: {error.message}
        </span>
        <button type="button" onClick={() => window.location.reload()}>
          Reload page
        </button>
      </div>
    );
  }
}
