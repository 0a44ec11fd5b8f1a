import type { SpecMode, SpecModeInfo } from '../../contract/index.js';
import { httpError } from '../../core/errors.js';
import { isObject } from '../../core/json.js';
import { proxyExtension, stateExtension } from './mock-modes.js';
import type { SpecTree } from './spec-edits.js';

/** The workspace's defaults a spec's extensions override (`MOCK_EXAMPLES`, `MOCK_STATE`). */
export interface ModeDefaults {
  examples: 'static' | 'dynamic';
  state: boolean;
}

/**
 * The mode a spec's routes answer in and what decides it: its proxy extension, then its state extension,
 * then its root `x-mock.examples`, then the workspace. (A route's own `x-mock` or a request's `Prefer`
 * may still differ; the requests panel shows what answered.)
 */
export function specModeOf(
  document: Record<string, unknown>,
  defaults: ModeDefaults,
): Pick<SpecModeInfo, 'mode' | 'setBy' | 'upstream'> {
  const proxy = document[proxyExtension];
  if (proxy !== undefined) {
    const url = isObject(proxy) ? proxy.url : proxy;
    return { mode: 'proxy', setBy: proxyExtension, ...(typeof url === 'string' ? { upstream: url } : {}) };
  }
  const state = document[stateExtension];
  if (state === true) return { mode: 'stateful', setBy: stateExtension };
  if (state === undefined && defaults.state) return { mode: 'stateful', setBy: 'workspace' };
  const examples = isObject(document['x-mock']) ? document['x-mock'].examples : undefined;
  if (examples === 'static' || examples === 'dynamic') return { mode: examples, setBy: 'x-mock' };
  return { mode: defaults.examples, setBy: 'workspace' };
}

/** True for an upstream URL the proxy accepts: http or https, without credentials. */
function isUpstreamUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * Sets a spec's root extensions so that it answers in `mode`: `x-adaptive-proxy` (its URL, or `upstream`),
 * `x-adaptive-state: true`, or `x-mock.examples` (turning state off when it is on). Leaving the proxy
 * removes `x-adaptive-proxy`; the file's other content is left alone.
 */
export function applySpecMode(tree: SpecTree, mode: SpecMode, defaults: ModeDefaults, upstream?: string): void {
  if (mode === 'proxy') {
    if (upstream !== undefined && !isUpstreamUrl(upstream))
      throw httpError('BAD_REQUEST', [`upstream "${upstream}" is not an http or https URL without credentials`]);
    const current = tree.get([proxyExtension]);
    if (upstream === undefined) {
      if (current === undefined) throw httpError('BAD_REQUEST', ['give the upstream URL to proxy to']);
      return;
    }
    tree.set(isObject(current) ? [proxyExtension, 'url'] : [proxyExtension], upstream);
    return;
  }
  tree.delete([proxyExtension]);
  if (mode === 'stateful') {
    tree.set([stateExtension], true);
    return;
  }
  const state = tree.get([stateExtension]);
  if (state === true || (state === undefined && defaults.state)) tree.set([stateExtension], false);
  if (!isObject(tree.get(['x-mock']))) tree.set(['x-mock'], { examples: mode });
  else tree.set(['x-mock', 'examples'], mode);
}
