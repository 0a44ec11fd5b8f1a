import pg from 'pg';

/** Settings of a `postgres` check: a connection URL. */
export interface PostgresCheckSettings {
  url: string;
}

/** Connects and runs `SELECT 1`; reports the server version. */
export async function postgresCheck(
  settings: PostgresCheckSettings,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const client = new pg.Client({ connectionString: settings.url, connectionTimeoutMillis: 10_000 });
  signal.addEventListener('abort', () => void client.end().catch(() => undefined), { once: true });
  try {
    await client.connect();
    const result = await client.query<{ version: string }>("SELECT current_setting('server_version') AS version");
    return { version: result.rows[0]?.version };
  } finally {
    await client.end().catch(() => undefined);
  }
}
