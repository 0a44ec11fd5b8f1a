import { keysOf } from './actions.js';
import type { Layout } from './layout.js';
import { displayKeys } from '../platform/shortcuts.js';
import './shell.css';

/** A title bar button: it runs an action of the table and shows its keys. */
interface TitleButton {
  action: string;
  text: string;
  /** The tooltip's name of what the button does; the keys follow in brackets. */
  title: string;
  /** Pressed-looking while what it toggles shows; absent for a button that toggles nothing. */
  on?: (layout: Layout) => boolean;
  ariaLabel?: string;
}

const buttons: TitleButton[] = [
  { action: 'newSqlQuery', text: 'New query', title: 'New SQL query' },
  { action: 'toggleExplorer', text: 'Explorer', title: 'Explorer', on: (l) => l.explorerVisible },
  { action: 'toggleBottom', text: 'Panels', title: 'Panels', on: (l) => l.bottomVisible },
  { action: 'toggleSide', text: 'Docs', title: 'API docs', on: (l) => l.sideVisible },
  { action: 'help', text: '?', title: 'Keyboard shortcuts', ariaLabel: 'Keyboard shortcuts' },
];

export interface TitleBarProps {
  /** The workspace folder's name. */
  workspace?: string;
  layout: Layout;
  onAction(id: string): void;
}

/** The product name, the workspace, and buttons for the panes and the shortcut help. */
export function TitleBar({ workspace, layout, onAction }: TitleBarProps) {
  return (
    <header className="titlebar">
      <span className="logo" aria-hidden="true">
        ◭
      </span>
      <strong>Adaptive Workbench</strong>
      <span className="muted">{workspace}</span>
      <span className="spacer" />
      {buttons.map((button) => (
        <button
          key={button.action}
          type="button"
          className={`toggle${button.on?.(layout) ? ' on' : ''}`}
          title={`${button.title} (${displayKeys(keysOf(button.action))})`}
          aria-label={button.ariaLabel}
          onClick={() => onAction(button.action)}
        >
          {button.text}
        </button>
      ))}
    </header>
  );
}
