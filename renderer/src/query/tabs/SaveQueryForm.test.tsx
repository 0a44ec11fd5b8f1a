// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SaveQueryForm } from './SaveQueryForm.js';

afterEach(cleanup);

function renderForm(onSave: (name: string) => Promise<boolean>) {
  const onCancel = vi.fn();
  render(<SaveQueryForm suggested="top-regions" extension=".sql" onSave={onSave} onCancel={onCancel} />);
  return { name: screen.getByLabelText('Query file name') as HTMLInputElement, onCancel };
}

describe('SaveQueryForm', () => {
  it('offers the suggested name, focused, and saves the name typed over it', async () => {
    const onSave = vi.fn(() => Promise.resolve(true));
    const { name } = renderForm(onSave);
    expect(name.value).toBe('top-regions');
    expect(document.activeElement).toBe(name);
    fireEvent.change(name, { target: { value: 'regions-2026' } });
    fireEvent.submit(name);
    await waitFor(() => expect(onSave).toHaveBeenCalledWith('regions-2026'));
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('stays open, ready again, when the name is refused', async () => {
    const onSave = vi.fn(() => Promise.resolve(false));
    const { name } = renderForm(onSave);
    fireEvent.submit(name);
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false),
    );
    expect(onSave).toHaveBeenCalledWith('top-regions');
  });

  it('cannot save an empty name, and Escape cancels', () => {
    const { name, onCancel } = renderForm(vi.fn());
    fireEvent.change(name, { target: { value: '  ' } });
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(name, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalled();
  });
});
