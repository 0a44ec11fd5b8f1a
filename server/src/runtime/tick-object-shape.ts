import { createHook } from 'node:async_hooks';

/**
 * Keeps one `process.nextTick` queue entry alive for the life of the process, so that the hidden
 * classes (maps) V8 gives those entries never die.
 *
 * Why: Node builds each entry as an object literal with symbol keys (`{[async_id_symbol]: ...,
 * [trigger_async_id_symbol]: ..., callback, args}`). Entries are short-lived, so whenever a full GC
 * runs while none is queued, their maps are collected and the next entry gets new ones. The inline
 * cache that adds the second key then sees a new map and goes megamorphic for good, after which every
 * `nextTick` (a dozen per HTTP request, from Node's streams) takes V8's runtime slow path. Whether
 * that happens depends on when full GCs fall during startup: a server that loads specs and handlers
 * got it, a bare Fastify server did not, and it cost a generated route about 38k of its 125k
 * instructions per request (measured with callgrind, `bench/instructions.mjs`). One entry kept alive
 * keeps the maps alive, and the cache stays monomorphic.
 *
 * The entry is caught through an async hook (Node hands each new entry to `init` hooks as its
 * resource); the hook is enabled for one `nextTick` call only.
 */
let anchor: object | undefined;

function keepTickObjectShape(): void {
  if (anchor) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') anchor ??= resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
}

keepTickObjectShape();
