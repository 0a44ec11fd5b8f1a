import type * as Monaco from 'monaco-editor';

/**
 * Gives Monaco's TypeScript service the module `adaptive-workbench/handler`, so handler files get
 * completion and type errors for `router.get(...)`, `t.Object(...)` and `HTTPException`.
 */
export async function loadHandlerTypings(monaco: typeof Monaco): Promise<void> {
  const ts = monaco.languages.typescript;
  ts.typescriptDefaults.setCompilerOptions({
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.NodeJs,
    strict: true,
    noEmit: true,
    esModuleInterop: true,
    allowNonTsExtensions: true,
  });
  // The server resolves and compiles imports itself (esbuild) and reports what fails as a problem;
  // without Node's typings here, "cannot find module" would only be noise.
  ts.typescriptDefaults.setDiagnosticsOptions({
    noSemanticValidation: false,
    noSyntaxValidation: false,
    diagnosticCodesToIgnore: [2307, 2792],
  });
  const { typingFiles } = await import('./handler-typings-files.js');
  ts.typescriptDefaults.setExtraLibs(typingFiles);
}
