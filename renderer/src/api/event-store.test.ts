import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WorkbenchDiagnostics } from '../../../server/src/contract/index.js';
import { ApiError, WorkbenchApi } from './client.js';
import { EventStore } from './event-store.js';
import { FakeEventSource } from './fake-event-source.test-support.js';

const log = (msg: string) => ({ time: 0, level: 'info', msg });
const latest = () => FakeEventSource.made.at(-1)!;

/** The API with its diagnostics call answered by `diagnostics` (which may throw). */
function apiAnswering(diagnostics: () => Promise<WorkbenchDiagnostics>) {
  const api = new WorkbenchApi('first-token');
  vi.spyOn(api, 'diagnostics').mockImplementation(diagnostics);
  return api;
}

describe('EventStore', () => {
  beforeEach(() => {
    FakeEventSource.made = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('applies each event once across reconnects to the same server start', async () => {
    const store = new EventStore(apiAnswering(async () => ({ diagnostics: [] })));
    store.connect();
    latest().open();
    latest().emit('hello', { instance: 'aaaa' });
    latest().emit('log', log('one'), 'aaaa:1');
    latest().emit('log', log('two'), 'aaaa:2');
    latest().fail(false);
    expect(store.snapshot().connected).toBe(false);
    latest().open();
    latest().emit('hello', { instance: 'aaaa' });
    latest().emit('log', log('two'), 'aaaa:2');
    latest().emit('log', log('three'), 'aaaa:3');
    expect(store.snapshot().logs.map((l) => l.msg)).toEqual(['one', 'two', 'three']);
    expect(store.snapshot().connected).toBe(true);
  });

  it('shows a replay once when it ends, its reloads counted as one, and every live event after', () => {
    const store = new EventStore(apiAnswering(async () => ({ diagnostics: [] })));
    const reload = (message: string) => ({ status: 'success', message, handlers: [], specs: [], errors: [] });
    const notified = vi.fn();
    store.subscribe(notified);
    store.connect();
    latest().open();
    latest().emit('hello', { instance: 'aaaa', replayUntil: 4 });
    notified.mockClear();
    for (let id = 1; id <= 3; id++) latest().emit('reload', reload(`replayed ${id}`), `aaaa:${id}`);
    expect(store.snapshot().reloadCount).toBe(0);
    expect(store.snapshot().lastReload?.message).toBe('replayed 3');
    // The views hear of the replay once, when it ends.
    expect(notified).not.toHaveBeenCalled();
    latest().emit('log', log('the last replayed event'), 'aaaa:4');
    expect(store.snapshot().reloadCount).toBe(1);
    expect(store.snapshot().logs.map((l) => l.msg)).toEqual(['the last replayed event']);
    expect(notified).toHaveBeenCalled();
    latest().emit('reload', reload('live'), 'aaaa:5');
    latest().emit('reload', reload('live again'), 'aaaa:6');
    expect(store.snapshot().reloadCount).toBe(3);
  });

  it('has the views fetch nothing again for a first replay whose reloads all came before the page started', () => {
    const store = new EventStore(apiAnswering(async () => ({ diagnostics: [] })));
    const reload = (message: string) => ({ status: 'success', message, handlers: [], specs: [], errors: [] });
    store.connect();
    latest().open();
    // The server's last replayed reload is far older than this page (whose age is performance.now()).
    latest().emit('hello', { instance: 'aaaa', replayUntil: 3, lastReloadAgoMs: 1e12 });
    latest().emit('reload', reload('at the server start'), 'aaaa:1');
    latest().emit('reload', reload('a save before the page opened'), 'aaaa:2');
    latest().emit('log', log('the last replayed event'), 'aaaa:3');
    expect(store.snapshot().reloadCount).toBe(0);
    expect(store.snapshot().lastReload?.message).toBe('a save before the page opened');
    // Live reloads still count, each.
    latest().emit('reload', reload('live'), 'aaaa:4');
    expect(store.snapshot().reloadCount).toBe(1);
  });

  it('has the views fetch again for a replayed reload younger than the page, and for any a reconnect replays', () => {
    const store = new EventStore(apiAnswering(async () => ({ diagnostics: [] })));
    const reload = (message: string) => ({ status: 'success', message, handlers: [], specs: [], errors: [] });
    store.connect();
    latest().open();
    // A reload while the page was starting (0 ms ago): what the page asked for may be older than it.
    latest().emit('hello', { instance: 'aaaa', replayUntil: 1, lastReloadAgoMs: 0 });
    latest().emit('reload', reload('while the page started'), 'aaaa:1');
    expect(store.snapshot().reloadCount).toBe(1);
    // A reconnect replays what the page missed: it counts whatever its age says.
    latest().fail(false);
    latest().open();
    latest().emit('hello', { instance: 'aaaa', replayUntil: 2, lastReloadAgoMs: 1e12 });
    latest().emit('reload', reload('missed while away'), 'aaaa:2');
    expect(store.snapshot().reloadCount).toBe(2);
  });

  it('takes a new server start whose ids begin again, and has the views fetch again', async () => {
    const diagnostics = vi.fn(async () => ({ diagnostics: [] }));
    const store = new EventStore(apiAnswering(diagnostics));
    store.connect();
    latest().open();
    latest().emit('hello', { instance: 'aaaa' });
    for (let id = 1; id <= 50; id++) latest().emit('log', log(`old ${id}`), `aaaa:${id}`);
    const before = store.snapshot().reloadCount;
    latest().fail(false);
    latest().open();
    latest().emit('hello', { instance: 'bbbb' });
    latest().emit('log', log('new 1'), 'bbbb:1');
    latest().emit(
      'diagnostics',
      { diagnostics: [{ path: 'specs/a.yaml', severity: 'error', message: 'x' }] },
      'bbbb:2',
    );
    expect(store.snapshot().logs.at(-1)?.msg).toBe('new 1');
    expect(store.snapshot().diagnostics).toHaveLength(1);
    expect(store.snapshot().reloadCount).toBe(before + 1);
    expect(diagnostics).toHaveBeenCalledTimes(2);
  });

  it('asks for a new token when the stream is refused with it, and opens again with the new one', async () => {
    const api = apiAnswering(async () => {
      throw new ApiError(401, 'The workbench token is wrong');
    });
    const store = new EventStore(api);
    store.connect();
    latest().open();
    latest().fail(true);
    await vi.runAllTimersAsync();
    expect(store.snapshot()).toMatchObject({ connected: false, tokenRefused: true });
    // Nothing is tried again with the refused token.
    expect(FakeEventSource.made).toHaveLength(1);

    api.replaceToken('second-token');
    expect(FakeEventSource.made).toHaveLength(2);
    expect(latest().url).toContain('token=second-token');
    expect(store.snapshot().tokenRefused).toBe(false);
    latest().open();
    expect(store.snapshot().connected).toBe(true);
  });

  it('tries again, less and less often, while the server cannot be reached; stops when closed', async () => {
    let reachable = false;
    const store = new EventStore(
      apiAnswering(async () => {
        if (!reachable) throw new TypeError('Failed to fetch');
        return { diagnostics: [] };
      }),
    );
    store.connect();
    latest().fail(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeEventSource.made).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeEventSource.made).toHaveLength(2);
    latest().fail(true);
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeEventSource.made).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeEventSource.made).toHaveLength(3);
    reachable = true;
    latest().fail(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeEventSource.made).toHaveLength(4);
    store.close();
    latest().fail(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeEventSource.made).toHaveLength(4);
  });
});
