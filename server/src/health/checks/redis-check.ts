import { Redis } from 'ioredis';

/** Settings of a `redis` check: a connection URL. */
export interface RedisCheckSettings {
  url: string;
}

/** Connects without retrying and sends PING. */
export async function redisCheck(settings: RedisCheckSettings, signal: AbortSignal): Promise<Record<string, unknown>> {
  const client = new Redis(settings.url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectTimeout: 10_000,
  });
  client.on('error', () => undefined);
  signal.addEventListener('abort', () => client.disconnect(), { once: true });
  try {
    await client.connect();
    return { ping: await client.ping() };
  } finally {
    client.disconnect();
  }
}
