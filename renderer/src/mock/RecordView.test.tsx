// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RecordedExchangeInfo, SpecModeInfo } from '../../../server/src/contract/index.js';
import { fakeServer, renderInWorkbench } from '../platform/workbench.test-support.js';
import { RecordView } from './RecordView.js';

// Monaco's diff editor draws nothing in happy-dom: a stand-in shows the texts it was given.
vi.mock('@monaco-editor/react', () => ({
  DiffEditor: (props: { original: string; modified: string }) => (
    <pre data-testid="diff">{`${props.original} -> ${props.modified}`}</pre>
  ),
}));
vi.mock('../editor/monaco-setup.js', () => ({}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const pay: SpecModeInfo = {
  path: 'specs/pay.yaml',
  mount: 'pay',
  mode: 'proxy',
  setBy: 'x-adaptive-proxy',
  recorded: 2,
};

const exchange = (id: number, over: Partial<RecordedExchangeInfo> = {}): RecordedExchangeInfo => ({
  id,
  time: 0,
  mount: 'pay',
  file: 'specs/pay.yaml',
  method: 'GET',
  url: `/payments/${id}`,
  path: '/payments/{id}',
  status: 200,
  response: '200',
  mediaType: 'application/json',
  size: 10,
  violations: 0,
  ...over,
});

function renderRecord(
  proposal: unknown = { path: 'specs/pay.yaml', original: 'a', proposed: 'b', name: 'recorded-1' },
) {
  const server = fakeServer({
    'GET /api/workbench/mock/recordings': () => ({
      mount: 'pay',
      exchanges: [exchange(1), exchange(2, { violations: 2 })],
    }),
    'POST /api/workbench/mock/recordings/proposal': () => proposal,
  });
  const props = { onClose: vi.fn(), onApply: vi.fn(() => Promise.resolve()), onError: vi.fn() };
  renderInWorkbench(<RecordView spec={pay} {...props} />);
  return { ...server, ...props };
}

describe('RecordView', () => {
  it('lists the kept answers with the violations each holds', async () => {
    renderRecord();
    const rows = await screen.findAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual(['GET/payments/1200', 'GET/payments/22002 ⚠']);
  });

  it('proposes the chosen answer under the typed name, and applies it', async () => {
    const { calls, onApply, onClose } = renderRecord();
    fireEvent.change(screen.getByLabelText('Example name'), { target: { value: '  paid  ' } });
    fireEvent.keyDown((await screen.findAllByRole('row'))[0], { key: 'Enter' });
    expect((await screen.findByTestId('diff')).textContent).toBe('a -> b');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ mount: 'pay', id: 1, name: 'paid' });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onApply).toHaveBeenCalledWith(
      expect.objectContaining({ proposed: 'b' }),
      'Example recorded-1 saved in specs/pay.yaml',
    );
  });

  it('marks a proposed example that breaks its schema', async () => {
    renderRecord({
      path: 'specs/pay.yaml',
      original: 'a',
      proposed: 'b',
      name: 'recorded-2',
      violations: [{ in: 'response', path: '/amount', rule: 'type' }],
    });
    fireEvent.click((await screen.findAllByRole('row'))[1]);
    expect((await screen.findByRole('alert')).textContent).toBe('This example breaks its schema: /amount type');
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.queryByTestId('diff')).toBeNull();
  });
});
