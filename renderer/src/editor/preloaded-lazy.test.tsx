// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { preloadedLazy } from './preloaded-lazy.js';

afterEach(cleanup);

const nextTask = () => new Promise((resolve) => setTimeout(resolve));

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('preloadedLazy', () => {
  it('starts loading on the next task, not while the page is still making its first requests', async () => {
    const load = vi.fn(() => Promise.resolve({ default: Greeting }));
    preloadedLazy(load);
    expect(load).not.toHaveBeenCalled();
    await nextTask();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('renders the loaded module at once, without a fallback, once it has loaded', async () => {
    const Preloaded = preloadedLazy(() => Promise.resolve({ default: Greeting }));
    await nextTask();
    await nextTask();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Preloaded name="reader" />
      </Suspense>,
    );
    expect(screen.getByText('Hello reader')).toBeTruthy();
    expect(screen.queryByText('Loading')).toBeNull();
  });

  it('suspends a render that comes before the module has loaded, and shows it when it has', async () => {
    const Preloaded = preloadedLazy(() => Promise.resolve({ default: Greeting }));
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Preloaded name="early" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeTruthy();
    expect(await screen.findByText('Hello early')).toBeTruthy();
  });
});
