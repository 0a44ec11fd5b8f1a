import type { CheckResult } from '../health-types.js';

/** Settings of an `http` check in health.yaml. */
export interface HttpCheckSettings {
  url: string;
  /** Expected status code(s); default: any 2xx. */
  status?: number | number[];
  /** A dot path into the JSON body that must be present (`data.count`). */
  field?: string;
  /** The value the field must equal, when given. */
  equals?: unknown;
  headers?: Record<string, string>;
}

function fieldAt(body: unknown, dotPath: string): unknown {
  let node = body;
  for (const key of dotPath.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** GETs a URL; UP when the status (and the optional JSON field) is as expected. */
export async function httpCheck(settings: HttpCheckSettings, signal: AbortSignal): Promise<CheckResult> {
  const response = await fetch(settings.url, { signal, headers: settings.headers, redirect: 'manual' });
  const expected = settings.status === undefined ? undefined : [settings.status].flat();
  const statusOk = expected ? expected.includes(response.status) : response.status >= 200 && response.status < 300;
  const details: Record<string, unknown> = { status_code: response.status };
  if (!statusOk) {
    await response.body?.cancel();
    return {
      status: 'DOWN',
      details: { ...details, error: `status ${response.status}, expected ${expected?.join(' or ') ?? '2xx'}` },
    };
  }
  if (settings.field === undefined) {
    await response.body?.cancel();
    return { status: 'UP', details };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { status: 'DOWN', details: { ...details, error: 'body is not JSON' } };
  }
  const value = fieldAt(body, settings.field);
  if (value === undefined)
    return { status: 'DOWN', details: { ...details, error: `field ${settings.field} is missing` } };
  if (settings.equals !== undefined && value !== settings.equals) {
    return {
      status: 'DOWN',
      details: {
        ...details,
        error: `field ${settings.field} is ${JSON.stringify(value)}, expected ${JSON.stringify(settings.equals)}`,
      },
    };
  }
  return { status: 'UP', details: { ...details, [settings.field]: value } };
}
