// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultRequestFilter, type RequestFilter } from '../api/request-filters.js';
import { RequestFilters } from './RequestFilters.js';

afterEach(cleanup);

function renderFilters(filter: RequestFilter = defaultRequestFilter, hiddenOwn = 0) {
  const onChange = vi.fn();
  render(<RequestFilters filter={filter} methods={['GET', 'POST']} hiddenOwn={hiddenOwn} onChange={onChange} />);
  return onChange;
}

describe('RequestFilters', () => {
  it('hands each change on as the whole filter', () => {
    const onChange = renderFilters();
    fireEvent.change(screen.getByLabelText('Filter by path'), { target: { value: '/orders' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: '5xx' } });
    fireEvent.change(screen.getByLabelText('Origin'), { target: { value: 'try-out' } });
    fireEvent.click(screen.getByRole('checkbox'));
    expect(onChange.mock.calls.map(([filter]) => filter)).toEqual([
      { ...defaultRequestFilter, path: '/orders' },
      { ...defaultRequestFilter, status: '5xx' },
      { ...defaultRequestFilter, origin: 'try-out' },
      { ...defaultRequestFilter, showOwn: true },
    ]);
  });

  it('keeps a chosen method selectable after the list lost it, and counts the hidden own calls', () => {
    renderFilters({ ...defaultRequestFilter, method: 'DELETE' }, 12);
    const methods = screen.getByLabelText('Method') as HTMLSelectElement;
    expect([...methods.options].map((o) => o.value)).toEqual(['', 'GET', 'POST', 'DELETE']);
    expect(methods.value).toBe('DELETE');
    expect(screen.getByText(/Show workbench calls \(12 hidden\)/)).toBeTruthy();
  });

  it('does not count hidden calls while they are shown', () => {
    renderFilters({ ...defaultRequestFilter, showOwn: true }, 12);
    expect(screen.queryByText(/hidden/)).toBeNull();
  });
});
