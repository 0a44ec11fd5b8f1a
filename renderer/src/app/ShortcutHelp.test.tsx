// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { actions, explorerKeys } from './actions.js';
import { ShortcutHelp } from './ShortcutHelp.js';

afterEach(cleanup);

/** The help opened from a button that had the focus, as the title bar's help button opens it. */
function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Shortcuts
      </button>
      {open && <ShortcutHelp onClose={() => setOpen(false)} />}
    </>
  );
}

function openHelp() {
  render(<Harness />);
  const opener = screen.getByRole('button', { name: 'Shortcuts' });
  opener.focus();
  fireEvent.click(opener);
  return opener;
}

describe('ShortcutHelp', () => {
  it('lists every action and the explorer keys, with the focus on Close', () => {
    openHelp();
    const rows = screen.getAllByRole('row');
    expect(rows.length).toBe(actions.length + explorerKeys.length);
    expect(rows[0].textContent).toMatch(/^(Ctrl|⌘)\+S.*Save the active file$/);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
  });

  it('closes on Esc (before anything under it sees the key) and on the backdrop, giving the focus back', () => {
    const opener = openHelp();
    let seenBelow = false;
    window.addEventListener('keydown', () => (seenBelow = true), { once: true });
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(seenBelow).toBe(false);
    expect(document.activeElement).toBe(opener);
    fireEvent.click(opener);
    fireEvent.click(screen.getByRole('dialog'));
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.click(screen.getByRole('dialog').parentElement!);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
