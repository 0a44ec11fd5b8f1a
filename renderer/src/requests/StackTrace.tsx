import type { LoggedError, StackFrame } from '../../../server/src/contract/index.js';
import { useWorkbench } from '../platform/workbench-context.js';
import { foldLabel, foldStack, frameText } from './stack-view.js';

function Frames({ frames }: { frames: StackFrame[] }) {
  const { openFile } = useWorkbench();
  return (
    <ol className="stack-frames">
      {frames.map((frame, i) => (
        <li key={i} className={`stack-frame ${frame.place}`}>
          at{' '}
          {frame.place === 'workspace' ? (
            // A workspace file opens in the editor at the frame's line.
            <button
              type="button"
              className="link"
              title={`Open ${frame.file}`}
              onClick={() => openFile(frame.file, { line: frame.line ?? 1, column: frame.column ?? 1 })}
            >
              {frameText(frame)}
            </button>
          ) : (
            frameText(frame)
          )}
        </li>
      ))}
    </ol>
  );
}

/**
 * A logged error's stack for reading: the workspace's frames (handlers) first, then the server's, and
 * the frames of installed packages and of the runtime's internals folded, each group opened on demand.
 */
export function StackTrace({ error }: { error: LoggedError }) {
  const { shown, libraries, internals, labels } = foldStack(error.frames);
  return (
    <div className="stack" aria-label="Stack trace">
      <div className="stack-error">
        {error.type ? `${error.type}: ` : ''}
        {error.message}
      </div>
      <Frames frames={shown} />
      {libraries.length > 0 && (
        <details className="stack-fold">
          <summary>{foldLabel(libraries.length, labels.libraries)}</summary>
          <Frames frames={libraries} />
        </details>
      )}
      {internals.length > 0 && (
        <details className="stack-fold">
          <summary>{foldLabel(internals.length, labels.internals)}</summary>
          <Frames frames={internals} />
        </details>
      )}
    </div>
  );
}
