/** File extension -> Monaco language id; every id but `plaintext` needs its language imported in monaco-core.ts. */
export const languageByExtension: Readonly<Record<string, string>> = {
  yaml: 'yaml',
  yml: 'yaml',
  json: 'json',
  ts: 'typescript',
  mts: 'typescript',
  js: 'javascript',
  mjs: 'javascript',
  py: 'python',
  sql: 'sql',
  md: 'markdown',
  ttl: 'plaintext',
  sparql: 'sparql',
  rq: 'sparql',
};

/** Workspace path -> Monaco language id ({@link languageByExtension}; `plaintext` for any other extension). */
export function languageOf(path: string): string {
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  // Own keys only: `x.constructor` must not find Object's constructor through the prototype.
  return Object.hasOwn(languageByExtension, extension) ? languageByExtension[extension] : 'plaintext';
}

/** True for OpenAPI documents the gateway loads (`specs/<name>.openapi.yaml|yml|json`). */
export function isOpenApiPath(path: string): boolean {
  return /^specs\/.*\.openapi\.(ya?ml|json)$/i.test(path);
}

/** The Monaco model URI of a workspace path: `file:///specs/a.openapi.yaml`. */
export function modelUri(path: string): string {
  return `file:///${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The workspace path of a Monaco model URI (the inverse of {@link modelUri}). */
export function pathOfModelUri(uri: string): string | undefined {
  if (!uri.startsWith('file:///')) return undefined;
  return uri.slice('file:///'.length).split('/').map(decodeURIComponent).join('/');
}
