// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SynonymSuggestion } from '../../../server/src/contract/index.js';
import { fakeServer, renderInWorkbench } from '../platform/workbench.test-support.js';
import { CandidatePicker, SynonymOffer } from './QuestionPick.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const pick: SynonymSuggestion = { words: ['city'], means: 'shop.customers.town', value: 'Aarhus' };
const added = '  - words: [city]\n    means: shop.customers.town\n    value: Aarhus\n';

describe('CandidatePicker', () => {
  it('asks again with the candidate clicked', () => {
    const onPick = vi.fn();
    render(<CandidatePicker candidates={['shop.customers.town', 'shop.stores.town']} onPick={onPick} />);
    fireEvent.click(screen.getByRole('button', { name: 'shop.stores.town' }));
    expect(onPick).toHaveBeenCalledWith('shop.stores.town');
  });
});

describe('SynonymOffer', () => {
  it('shows the YAML it adds, and saves the whole file through the file API on confirm', async () => {
    const { calls } = fakeServer({
      'POST /api/v1/query/natural-language/synonym': () => ({
        path: 'query/sources.yaml',
        added,
        content: `x\n${added}`,
      }),
      'PUT /api/workbench/files/content': () => ({ path: 'query/sources.yaml', version: 'v2' }),
    });
    const { workbench } = renderInWorkbench(<SynonymOffer synonym={pick} />);
    expect(screen.getByText('Picked shop.customers.town = Aarhus for "city".')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save as synonym' }));
    expect((await screen.findByLabelText('Synonym YAML')).textContent).toBe(added);
    fireEvent.click(screen.getByRole('button', { name: 'Save to query/sources.yaml' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Saved to query/sources.yaml: "city" now means shop.customers.town = Aarhus; the next question uses it.',
    );
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /api/v1/query/natural-language/synonym',
      'PUT /api/workbench/files/content?path=query%2Fsources.yaml',
    ]);
    expect(calls[0].body).toEqual(pick);
    expect(calls[1].body).toEqual({ content: `x\n${added}` });
    expect(workbench.notify).toHaveBeenCalledWith('Synonym saved to query/sources.yaml');
  });

  it('says when the synonym is there already, or the file is outside the workspace', async () => {
    let proposal: unknown = { path: 'query/sources.yaml', added: '', content: 'x' };
    fakeServer({ 'POST /api/v1/query/natural-language/synonym': () => proposal });
    renderInWorkbench(<SynonymOffer synonym={pick} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save as synonym' }));
    expect((await screen.findByRole('status')).textContent).toBe('query/sources.yaml already declares this synonym.');
    cleanup();
    proposal = { added, content: 'x' };
    renderInWorkbench(<SynonymOffer synonym={pick} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save as synonym' }));
    expect(
      await screen.findByText('sources.yaml is outside the workspace: add these lines to it by hand.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Save to/ })).toBeNull();
  });

  it("shows the server's refusal and offers the synonym again", async () => {
    fakeServer({
      'POST /api/v1/query/natural-language/synonym': () => ({
        status: 400,
        body: { detail: 'shop.customers.town is not a column of the sources', code: 'NL_SYNONYM_INVALID' },
      }),
    });
    renderInWorkbench(<SynonymOffer synonym={pick} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save as synonym' }));
    expect((await screen.findByRole('alert')).textContent).toBe('shop.customers.town is not a column of the sources');
    expect(screen.getByRole('button', { name: 'Save as synonym' })).toBeTruthy();
  });
});
