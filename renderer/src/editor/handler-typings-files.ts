// The handler SDK's own sources (and the one server module they import), and TypeBox's declarations
// that type its `t` and route schemas, as text. One chunk, loaded with the editor's TypeScript support.
const sdkSources = import.meta.glob<string>(
  [
    '../../../server/src/handler-sdk/*.ts',
    '!../../../server/src/handler-sdk/*.test.ts',
    '!../../../server/src/handler-sdk/*.test-d.ts',
    '../../../server/src/core/errors.ts',
  ],
  { query: '?raw', import: 'default', eager: true },
);
const typebox = import.meta.glob<string>(
  [
    '../../../node_modules/@sinclair/typebox/build/cjs/**/*.d.ts',
    '../../../node_modules/@sinclair/typebox/package.json',
  ],
  {
    query: '?raw',
    import: 'default',
    eager: true,
  },
);

/** Where the SDK appears to Monaco's TypeScript service: a package named like the real one. */
export const virtualPackage = 'file:///node_modules/adaptive-workbench';

/** `../../../server/src/x.ts` -> `file:///node_modules/adaptive-workbench/server/src/x.ts` (same relative layout). */
function virtualPath(globKey: string): string {
  return globKey
    .replace(/^(\.\.\/)+/, '')
    .replace(/^node_modules\//, 'file:///node_modules/')
    .replace(/^server\//, `${virtualPackage}/server/`);
}

/** Every file the handler typings need, at the path Monaco's TypeScript service resolves it from. */
export const typingFiles: Array<{ filePath: string; content: string }> = [
  ...Object.entries({ ...sdkSources, ...typebox }).map(([key, content]) => ({ filePath: virtualPath(key), content })),
  // `adaptive-workbench/handler` -> the SDK's index, as the package's `exports` map does for the server.
  { filePath: `${virtualPackage}/handler.ts`, content: "export * from './server/src/handler-sdk/index.js';\n" },
];
