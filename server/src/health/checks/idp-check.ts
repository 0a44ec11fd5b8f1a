/**
 * The identity provider answers: its discovery document names the issuer and its JWKS has keys.
 * Runs fresh on every call, unlike the authenticator's cached metadata.
 */
export async function idpCheck(issuer: string, signal: AbortSignal): Promise<Record<string, unknown>> {
  const discovery = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { signal });
  if (discovery.status !== 200) throw new Error(`discovery answered ${discovery.status}`);
  const metadata = (await discovery.json()) as { issuer?: unknown; jwks_uri?: unknown };
  if (metadata.issuer !== issuer) throw new Error('the discovery document names another issuer');
  if (typeof metadata.jwks_uri !== 'string') throw new Error('the discovery document has no jwks_uri');
  const jwks = await fetch(metadata.jwks_uri, { signal });
  if (jwks.status !== 200) throw new Error(`JWKS answered ${jwks.status}`);
  const keys = ((await jwks.json()) as { keys?: unknown[] }).keys;
  if (!Array.isArray(keys) || keys.length === 0) throw new Error('the JWKS has no keys');
  return { issuer, keys: keys.length };
}
