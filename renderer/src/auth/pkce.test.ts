import { describe, expect, it } from 'vitest';
import type { BrowserLogin } from '../../../server/src/contract/index.js';
import { beginLogin, codeChallenge, randomUrlSafe, readLoginReturn, redeemCode, withoutLoginReturn } from './pkce.js';
import { memoryStorage } from '../api/auth-session.js';

const login: BrowserLogin = {
  issuer: 'https://sso.example/realms/platform',
  name: 'platform',
  clientId: 'adaptive-workbench',
  authorizationEndpoint: 'https://sso.example/realms/platform/auth?kc_idp_hint=x',
  tokenEndpoint: 'https://sso.example/realms/platform/token',
  scope: 'openid profile',
};
const back = 'http://127.0.0.1:8080/workbench/';

describe('PKCE', () => {
  it('computes the S256 challenge of RFC 7636 appendix B', async () => {
    expect(await codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes verifiers of 43 unreserved characters, a new one each time', () => {
    const a = randomUrlSafe();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomUrlSafe()).not.toBe(a);
  });

  it('sends the browser to the provider with the code flow, the challenge and a state for the way back', async () => {
    const storage = memoryStorage();
    const url = new URL(await beginLogin(login, back, storage));
    expect(url.origin + url.pathname).toBe('https://sso.example/realms/platform/auth');
    expect(url.searchParams.get('kc_idp_hint')).toBe('x');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe('adaptive-workbench');
    expect(url.searchParams.get('redirect_uri')).toBe(back);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const answer = readLoginReturn(`${back}?code=c0de&state=${url.searchParams.get('state')}`, storage);
    if (!answer || 'error' in answer) throw new Error(`expected a code, got ${JSON.stringify(answer)}`);
    expect(answer.code).toBe('c0de');
    // The challenge sent is the one of the verifier that will redeem the code.
    expect(await codeChallenge(answer.pending.verifier)).toBe(url.searchParams.get('code_challenge'));
  });

  it('refuses an answer with another state, of another issuer or with no login started; uses it once', async () => {
    const storage = memoryStorage();
    const state = new URL(await beginLogin(login, back, storage)).searchParams.get('state');
    expect(readLoginReturn(`${back}?code=c0de&state=forged`, storage)).toEqual({
      error: expect.stringMatching(/state differs/),
    });
    // The forged answer used up the pending login: the genuine one that follows is refused too.
    expect(readLoginReturn(`${back}?code=c0de&state=${state}`, storage)).toEqual({
      error: expect.stringMatching(/No sign-in was started/),
    });
    const next = new URL(await beginLogin(login, back, storage)).searchParams.get('state');
    expect(readLoginReturn(`${back}?code=c0de&state=${next}&iss=https%3A%2F%2Fevil.example`, storage)).toEqual({
      error: expect.stringMatching(/another identity provider \(https:\/\/evil\.example\)/),
    });
  });

  it("passes on the provider's refusal and ignores pages that are no answer of a login", async () => {
    const storage = memoryStorage();
    const state = new URL(await beginLogin(login, back, storage)).searchParams.get('state');
    expect(
      readLoginReturn(`${back}?error=access_denied&error_description=User+said+no&state=${state}`, storage),
    ).toEqual({ error: 'The identity provider refused: User said no' });
    expect(readLoginReturn(`${back}?token=abc`, storage)).toBeUndefined();
  });

  it('takes the answer out of the address, keeping the rest', () => {
    expect(withoutLoginReturn(`${back}?code=c&state=s&iss=i&session_state=x&keep=1#h`)).toBe('/workbench/?keep=1#h');
  });

  it('redeems the code with the verifier, and reports a refusal with the provider’s words', async () => {
    const pending = {
      state: 's',
      verifier: 'v'.repeat(43),
      issuer: login.issuer,
      clientId: login.clientId,
      tokenEndpoint: login.tokenEndpoint,
      redirectUri: back,
    };
    let form: URLSearchParams | undefined;
    const ok = (async (_url: string, init: RequestInit) => {
      form = init.body as URLSearchParams;
      return Response.json({ access_token: 'at', token_type: 'Bearer' });
    }) as typeof fetch;
    expect(await redeemCode('c0de', pending, ok)).toBe('at');
    expect(Object.fromEntries(form!)).toEqual({
      grant_type: 'authorization_code',
      code: 'c0de',
      redirect_uri: back,
      client_id: 'adaptive-workbench',
      code_verifier: 'v'.repeat(43),
    });
    const refused = (async () =>
      Response.json(
        { error: 'invalid_grant', error_description: 'PKCE verification failed' },
        { status: 400 },
      )) as typeof fetch;
    const unreachable = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    await expect(redeemCode('c0de', pending, unreachable)).rejects.toThrow(
      /token endpoint https:\/\/sso\.example\/realms\/platform\/token could not be called \(Failed to fetch\)/,
    );
    await expect(redeemCode('c0de', pending, refused)).rejects.toThrow(
      /did not give a token: PKCE verification failed/,
    );
  });
});
