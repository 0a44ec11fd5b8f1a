import type { MockModeSettings } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import { LoadError } from '../load-error.js';
import type { RequestValidator } from '../request-validator.js';
import type { CompiledSpec, OperationSpec } from '../model/spec-types.js';
import type { ResponseValidator } from './contract.js';
import { SpecProxy, type ProxyTarget } from './proxy.js';
import { statefulResources, type StatefulAction } from './stateful-resources.js';
import type { MockStateStore } from './state-store.js';
import { isObject } from '../../core/json.js';
import type { ExchangeRecorder } from './recordings.js';

/** What the generated routes of every spec share for the stateful and proxy modes. */
export interface MockContext {
  settings: MockModeSettings;
  /** The state of every mount; it outlives reloads. */
  store: MockStateStore;
  /** Where the gateway serves its route table (`/api/adaptive`, or `''` in mock mode). */
  routePrefix: string;
  /** Keeps the proxies' upstream answers for recording (in workbench mode only). */
  recorder?: ExchangeRecorder;
}

/** The modes one spec's routes answer in besides the examples. */
export interface SpecMockModes {
  /** Stateful actions of the operations that read or write a collection. */
  stateful?: Map<OperationSpec, StatefulAction>;
  proxy?: SpecProxy;
}

/** Spec extension that turns stateful resources on or off for one spec (`MOCK_STATE` otherwise). */
export const stateExtension = 'x-adaptive-state';
/** Spec extension naming the upstream to proxy to: a URL, or `{url, timeout_ms, fallthrough, errors}`. */
export const proxyExtension = 'x-adaptive-proxy';

/** The spec's proxy target from {@link proxyExtension}, checked; `undefined` when it has none. */
export function proxyTarget(spec: CompiledSpec, settings: MockModeSettings): ProxyTarget | undefined {
  const declared = spec.document[proxyExtension];
  if (declared === undefined) return undefined;
  const fields = isObject(declared) ? declared : { url: declared };
  const fail = (message: string) => new LoadError(spec.file, `${proxyExtension}: ${message}`);
  if (typeof fields.url !== 'string')
    throw fail('give the upstream URL, or an object with url, timeout_ms, fallthrough and errors');
  let url: URL;
  try {
    url = new URL(fields.url);
  } catch {
    throw fail(`"${fields.url}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw fail(`only http and https upstreams are supported, not ${url.protocol}`);
  if (url.username || url.password)
    throw fail("credentials do not belong in the URL; the client's Authorization header is forwarded");
  const timeoutMs = fields.timeout_ms ?? settings.proxyTimeoutMs;
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 10 || timeoutMs > 600_000)
    throw fail('timeout_ms must be an integer from 10 to 600000');
  const fallthrough = fields.fallthrough ?? true;
  if (typeof fallthrough !== 'boolean') throw fail('fallthrough must be true or false');
  const blocking = fields.errors ?? false;
  if (typeof blocking !== 'boolean') throw fail('errors must be true or false');
  return { url, timeoutMs, fallthrough, blocking, responseLimit: settings.proxyResponseLimit };
}

/** Whether the spec's resources are stateful: {@link stateExtension}, else the workspace setting. */
export function isStateful(spec: CompiledSpec, settings: MockModeSettings): boolean {
  const declared = spec.document[stateExtension];
  if (declared === undefined) return settings.state;
  if (typeof declared !== 'boolean') throw new LoadError(spec.file, `${stateExtension} must be true or false`);
  return declared;
}

/**
 * The modes of one spec: a proxy when it names an upstream (state is then off: the upstream owns
 * it), else stateful resources when they are on. `requestValidator` is asked for only by the proxy,
 * which reports request violations rather than refusing the request; `responseValidator` by both.
 */
export function mockModes(
  spec: CompiledSpec,
  context: MockContext | undefined,
  log: Logger,
  requestValidator: () => RequestValidator,
  responseValidator: () => ResponseValidator,
): SpecMockModes {
  if (!context) return {};
  const target = proxyTarget(spec, context.settings);
  const stateful = !target && isStateful(spec, context.settings);
  if (!target && !stateful) return {};
  const responses = responseValidator();
  if (target) {
    const proxy = new SpecProxy(spec, target, context.routePrefix, requestValidator(), responses, log);
    const recorder = context.recorder;
    if (recorder) proxy.onExchange = (...exchange) => void recorder.offer(spec, ...exchange);
    return { proxy };
  }
  return { stateful: statefulResources(spec, context.store, responses, log) };
}
