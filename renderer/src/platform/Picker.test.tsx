// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Picker, type PickerItem } from './Picker.js';

afterEach(cleanup);

const files = Array.from({ length: 30 }, (_, i) => `specs/api-${String(i).padStart(2, '0')}.yaml`);

/** A quick-open over `files` filtered by the text typed, opened from a button that had the focus. */
function renderPicker() {
  const onPick = vi.fn();
  function QuickOpen() {
    const [open, setOpen] = useState(true);
    const [query, setQuery] = useState('');
    const items: PickerItem[] = files.filter((f) => f.includes(query)).map((f) => ({ id: f, label: f }));
    return (
      <>
        <button type="button">opener</button>
        {open && (
          <Picker
            label="Go to file"
            placeholder="File name"
            items={items}
            empty="No file matches"
            note={items.length > 20 ? 'More files match: type more' : undefined}
            onQuery={setQuery}
            onPick={onPick}
            onClose={() => setOpen(false)}
          />
        )}
      </>
    );
  }
  screen.queryByText('opener');
  const view = render(<QuickOpen />);
  return { ...view, onPick };
}

const input = () => screen.getByRole('combobox', { name: 'Go to file' });
const selected = () => screen.getByRole('option', { selected: true }).textContent;

describe('Picker', () => {
  it('keeps the focus in its field and moves through the rows with the arrows and pages', () => {
    renderPicker();
    expect(document.activeElement).toBe(input());
    expect(selected()).toBe('specs/api-00.yaml');
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    expect(selected()).toBe('specs/api-01.yaml');
    expect(input().getAttribute('aria-activedescendant')).toBe('picker-option-1');
    fireEvent.keyDown(input(), { key: 'PageDown' });
    fireEvent.keyDown(input(), { key: 'PageDown' });
    fireEvent.keyDown(input(), { key: 'PageDown' });
    expect(selected()).toBe('specs/api-29.yaml');
    fireEvent.keyDown(input(), { key: 'ArrowUp' });
    expect(selected()).toBe('specs/api-28.yaml');
    expect(screen.getByText('More files match: type more')).toBeTruthy();
  });

  it('starts again at the first row of what the new text matches, and says when nothing does', () => {
    renderPicker();
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.change(input(), { target: { value: 'api-1' } });
    expect(selected()).toBe('specs/api-10.yaml');
    fireEvent.change(input(), { target: { value: 'nothing' } });
    expect(screen.getByText('No file matches')).toBeTruthy();
    expect(input().getAttribute('aria-activedescendant')).toBeNull();
  });

  it('picks with Enter or a click and closes; Esc closes, giving the focus back', () => {
    const { onPick } = renderPicker();
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(onPick).toHaveBeenCalledWith({ id: 'specs/api-01.yaml', label: 'specs/api-01.yaml' });
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();
    renderPicker();
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
