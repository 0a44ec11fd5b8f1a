import { useEffect, useEffectEvent } from 'react';

/** A keyboard shortcut: `Mod` is Ctrl, or Cmd on macOS. Keys are physical (`KeyS`, `Digit1`), so they work on any
 * layout. */
export interface Shortcut {
  id: string;
  keys: string;
  /** Further keys for the same action (F1 beside Mod+Shift+P). */
  alsoKeys?: string[];
  description: string;
}

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Shows a shortcut's keys as the user's platform spells them, its further keys after a slash. */
export function displayShortcut(shortcut: Shortcut): string {
  return [shortcut.keys, ...(shortcut.alsoKeys ?? [])].map(displayKeys).join(' / ');
}

/** Shows `Mod+Shift+S` as the user's platform spells it. */
export function displayKeys(keys: string): string {
  return keys
    .split('+')
    .map((part) =>
      part === 'Mod' ? (isMac ? '⌘' : 'Ctrl') : part === 'Alt' && isMac ? '⌥' : part.replace(/^Key|^Digit/, ''),
    )
    .join(isMac ? '' : '+');
}

function matches(event: KeyboardEvent, keys: string): boolean {
  const parts = keys.split('+');
  const code = parts[parts.length - 1];
  const mod = parts.includes('Mod');
  return (
    event.code === code &&
    (isMac ? event.metaKey : event.ctrlKey) === mod &&
    (isMac ? event.ctrlKey : event.metaKey) === false &&
    event.altKey === parts.includes('Alt') &&
    event.shiftKey === parts.includes('Shift')
  );
}

/**
 * Runs `handlers[shortcut.id]` when a shortcut is pressed anywhere, the editor included: the listener
 * runs in the capture phase, before Monaco sees the key.
 */
export function useShortcuts(shortcuts: Shortcut[], handlers: Record<string, () => void>): void {
  // An effect event: the listener stays while it always runs this render's handlers.
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    const shortcut = shortcuts.find((s) => [s.keys, ...(s.alsoKeys ?? [])].some((keys) => matches(event, keys)));
    const handler = shortcut && handlers[shortcut.id];
    if (!handler) return;
    event.preventDefault();
    event.stopPropagation();
    handler();
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    window.addEventListener('keydown', listener, true);
    return () => window.removeEventListener('keydown', listener, true);
  }, []);
}
