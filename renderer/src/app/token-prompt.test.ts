import { describe, expect, it } from 'vitest';
import { readPromptAnswer } from './TokenPrompt.js';

const origin = 'http://127.0.0.1:8080';

describe('readPromptAnswer', () => {
  it('takes the token of a workbench URL of this server, or a token alone', () => {
    expect(readPromptAnswer(' http://127.0.0.1:8080/workbench/?token=a%2Bb-c ', origin)).toEqual({ token: 'a+b-c' });
    expect(readPromptAnswer('k3Yq9_abc', origin)).toEqual({ token: 'k3Yq9_abc' });
    expect(readPromptAnswer('/workbench/?token=xyz#top', origin)).toEqual({ token: 'xyz' });
  });

  it('goes to a server that came back elsewhere: this page may only call its own origin', () => {
    expect(readPromptAnswer('http://127.0.0.1:9090/workbench/?token=xyz', origin)).toEqual({
      elsewhere: 'http://127.0.0.1:9090/workbench/?token=xyz',
    });
  });

  it('refuses blanks and URLs without a token, rather than sending them as tokens', () => {
    for (const bad of ['', '   ', 'http://127.0.0.1:8080/workbench/', 'http://127.0.0.1:9090/', 'http://[::1']) {
      expect(readPromptAnswer(bad, origin), bad).toBeUndefined();
    }
  });
});
