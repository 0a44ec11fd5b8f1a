import type { RequestOrigin, WorkbenchRequest } from '../../../server/src/contract/index.js';

/** Classes of status the panel filters by. */
export const statusClasses = ['2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof statusClasses)[number];

/** What the requests panel shows: own traffic or not, and what the filters ask (empty: any). */
export interface RequestFilter {
  /** Show the workbench's own calls (its queries, job polls, health refreshes, docs document). */
  showOwn: boolean;
  /** Text the path (with its query string) contains, case-insensitive. */
  path: string;
  status: StatusClass | '';
  method: string;
  origin: RequestOrigin | '';
}

export const defaultRequestFilter: RequestFilter = { showOwn: false, path: '', status: '', method: '', origin: '' };

/** `2xx` for 200-299 and so on; statuses outside 200-599 (1xx never reaches the panel) fall in no class. */
export function statusClassOf(status: number): StatusClass | undefined {
  const hundreds = Math.floor(status / 100);
  return hundreds >= 2 && hundreds <= 5 ? (`${hundreds}xx` as StatusClass) : undefined;
}

/** The tone a status is shown in: server error, client error, or fine. */
export function statusTone(status: number): 'error' | 'warning' | 'ok' {
  return status >= 500 ? 'error' : status >= 400 ? 'warning' : 'ok';
}

/** The requests `filter` lets through, in their order, and how many own calls it hid. */
export function filterRequests(
  requests: readonly WorkbenchRequest[],
  filter: RequestFilter,
): { shown: WorkbenchRequest[]; hiddenOwn: number } {
  const needle = filter.path.trim().toLowerCase();
  const shown: WorkbenchRequest[] = [];
  let hiddenOwn = 0;
  for (const request of requests) {
    if (request.origin === 'workbench' && !filter.showOwn) {
      hiddenOwn++;
      continue;
    }
    if (needle && !request.url.toLowerCase().includes(needle)) continue;
    if (filter.status && statusClassOf(request.status) !== filter.status) continue;
    if (filter.method && request.method !== filter.method) continue;
    if (filter.origin && request.origin !== filter.origin) continue;
    shown.push(request);
  }
  return { shown, hiddenOwn };
}

/**
 * The requests to keep of `requests` (oldest first): the newest `max` of other origins and, apart, the
 * newest `maxOwn` of the workbench's own, so that its polls and refreshes never push out the requests
 * the panel is there to show. Order is kept.
 */
export function keepRequests(requests: readonly WorkbenchRequest[], max: number, maxOwn: number): WorkbenchRequest[] {
  let own = 0;
  let others = 0;
  const kept: WorkbenchRequest[] = [];
  for (let i = requests.length - 1; i >= 0; i--) {
    const isOwn = requests[i].origin === 'workbench';
    if (isOwn ? own++ < maxOwn : others++ < max) kept.push(requests[i]);
  }
  return kept.reverse();
}

/** The methods seen among `requests`, sorted: what the method filter offers. */
export function methodsOf(requests: readonly WorkbenchRequest[]): string[] {
  return [...new Set(requests.map((r) => r.method))].sort();
}
