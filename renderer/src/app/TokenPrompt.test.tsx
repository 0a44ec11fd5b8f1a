// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readPromptAnswer, TokenPrompt } from './TokenPrompt.js';

const origin = 'http://127.0.0.1:8080';

describe('readPromptAnswer', () => {
  it('takes the token of a workbench URL of this server, or a token alone', () => {
    expect(readPromptAnswer(' http://127.0.0.1:8080/workbench/?token=a%2Bb-c ', origin)).toEqual({ token: 'a+b-c' });
    expect(readPromptAnswer('k3Yq9_abc', origin)).toEqual({ token: 'k3Yq9_abc' });
    expect(readPromptAnswer('/workbench/?token=xyz#top', origin)).toEqual({ token: 'xyz' });
  });

  it('goes to a server that came back elsewhere: this page may only call its own origin', () => {
    expect(readPromptAnswer('http://127.0.0.1:9090/workbench/?token=xyz', origin)).toEqual({
      elsewhere: 'http://127.0.0.1:9090/workbench/?token=xyz',
    });
  });

  it('refuses blanks and URLs without a token, rather than sending them as tokens', () => {
    for (const bad of ['', '   ', 'http://127.0.0.1:8080/workbench/', 'http://127.0.0.1:9090/', 'http://[::1']) {
      expect(readPromptAnswer(bad, origin), bad).toBeUndefined();
    }
  });
});

describe('TokenPrompt', () => {
  afterEach(cleanup);

  it('hands on the token of a pasted workbench URL, and refuses what holds none', () => {
    const onToken = vi.fn();
    render(<TokenPrompt rejected onToken={onToken} />);
    expect(screen.getByText(/^The server did not accept the token/)).toBeTruthy();
    const field = screen.getByLabelText('Workbench URL or token');
    fireEvent.change(field, { target: { value: `${window.location.origin}/workbench/` } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('That is not a workbench URL with a token, nor a token.')).toBeTruthy();
    fireEvent.change(field, { target: { value: `${window.location.origin}/workbench/?token=t0k3n` } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(onToken).toHaveBeenCalledWith('t0k3n');
    expect(field.getAttribute('aria-invalid')).toBe('false');
  });

  it('asks over an open workbench, as a dialog, when the server restarted', () => {
    render(<TokenPrompt rejected={false} overlay onToken={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'The server restarted' });
    expect(dialog.textContent).toContain('Open files and unsaved changes stay as they are.');
  });
});
