import { describe, expect, it } from 'vitest';
import { AuthStore, basicAuthorization, bearerAuthorization, memoryStorage } from './auth-session.js';

describe('credentials', () => {
  it('encodes Basic credentials as UTF-8, colons in the password included', () => {
    expect(basicAuthorization('ops', 's3cret')).toBe('Basic b3BzOnMzY3JldA==');
    expect(basicAuthorization('jürgen', 'pä:ss')).toBe('Basic asO8cmdlbjpww6Q6c3M=');
  });

  it('takes a pasted token with or without "Bearer ", and refuses blanks and text with spaces', () => {
    expect(bearerAuthorization('  eyJ.a.b \n')).toBe('Bearer eyJ.a.b');
    expect(bearerAuthorization('bearer eyJ.a.b')).toBe('Bearer eyJ.a.b');
    expect(bearerAuthorization('   ')).toBeUndefined();
    expect(bearerAuthorization('Bearer ')).toBeUndefined();
    expect(bearerAuthorization('not a token')).toBeUndefined();
  });
});

describe('AuthStore', () => {
  const session = { authorization: 'Basic b3BzOnMzY3JldA==', via: 'password' as const, subject: 'ops' };

  it('keeps the session in the tab storage, so a reload of the tab stays signed in, until sign-out', () => {
    const storage = memoryStorage();
    const store = new AuthStore(storage);
    expect(store.authorization()).toBeUndefined();
    store.signIn(session);
    expect(new AuthStore(storage).snapshot().session).toEqual(session);
    store.signOut();
    expect(store.authorization()).toBeUndefined();
    expect(new AuthStore(storage).snapshot().session).toBeUndefined();
  });

  it('treats a damaged or foreign entry as no session', () => {
    for (const value of [
      '{not json',
      '{"authorization":1}',
      '{"authorization":"x","subject":"y","via":"magic"}',
      'null',
    ]) {
      const storage = memoryStorage();
      storage.setItem('adaptive-workbench:sign-in', value);
      expect(new AuthStore(storage).snapshot().session).toBeUndefined();
    }
  });

  it('shows a refused call until the next sign-in, and signing in closes the sign-in view', () => {
    const store = new AuthStore(memoryStorage());
    let changes = 0;
    const stop = store.subscribe(() => changes++);
    store.openSignIn('The identity provider refused: access_denied');
    expect(store.snapshot().signInError).toBe('The identity provider refused: access_denied');
    store.refused({ method: 'GET', url: '/api/v1/query/sources', status: 401, detail: 'Authentication is required' });
    expect(store.snapshot()).toMatchObject({ signingIn: true, refusal: { status: 401 } });
    store.signIn(session);
    expect(store.snapshot()).toMatchObject({ signingIn: false, refusal: undefined, signInError: undefined, session });
    stop();
    store.signOut();
    expect(changes).toBe(3);
    store.openSignIn();
    expect(store.snapshot().signInError).toBeUndefined();
  });
});
