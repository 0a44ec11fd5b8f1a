import type { RequestOrigin } from '../../../server/src/contract/index.js';
import { statusClasses, type RequestFilter, type StatusClass } from '../api/request-filters.js';

/** How the origins read in the panel. */
export const originLabels: Record<RequestOrigin, string> = {
  external: 'external',
  'try-out': 'try-out',
  workbench: 'workbench',
};

interface RequestFiltersProps {
  filter: RequestFilter;
  methods: string[];
  hiddenOwn: number;
  onChange(filter: RequestFilter): void;
}

/** The requests panel's filters: path text, status class, method, origin, and the own-traffic toggle. */
export function RequestFilters({ filter, methods, hiddenOwn, onChange }: RequestFiltersProps) {
  const set = (change: Partial<RequestFilter>) => onChange({ ...filter, ...change });
  return (
    <>
      <input
        type="search"
        placeholder="Filter by path"
        aria-label="Filter by path"
        value={filter.path}
        onChange={(e) => set({ path: e.target.value })}
      />
      <select
        aria-label="Status"
        value={filter.status}
        onChange={(e) => set({ status: e.target.value as StatusClass | '' })}
      >
        <option value="">any status</option>
        {statusClasses.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
      <select aria-label="Method" value={filter.method} onChange={(e) => set({ method: e.target.value })}>
        <option value="">any method</option>
        {/* A method chosen before the list was cleared stays selectable. */}
        {[...new Set([...methods, ...(filter.method ? [filter.method] : [])])].map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
      <select
        aria-label="Origin"
        value={filter.origin}
        onChange={(e) => set({ origin: e.target.value as RequestOrigin | '' })}
      >
        <option value="">any origin</option>
        {Object.entries(originLabels).map(([origin, label]) => (
          <option key={origin} value={origin}>
            {label}
          </option>
        ))}
      </select>
      <label title="The workbench's own calls: its queries, job polls, health refreshes and the API docs' document">
        <input type="checkbox" checked={filter.showOwn} onChange={(e) => set({ showOwn: e.target.checked })} /> Show
        workbench calls{!filter.showOwn && hiddenOwn > 0 ? ` (${hiddenOwn} hidden)` : ''}
      </label>
    </>
  );
}
