// The lint gate (`npm run lint`, part of `npm test`). Formatting is Prettier's job (`npm run format`);
// these rules keep what a formatter cannot: the layers of docs/architecture.md, no import cycles, and
// the sizes a reader can take in at once.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const src = './server/src';

/**
 * What each feature folder of server/src may import besides itself, `core` and `contract`. An edge
 * not listed here is a lint error: add it here (and to docs/architecture.md) or move the code.
 */
const featureNeighbours = {
  observability: [],
  auth: ['observability'],
  runtime: [],
  'handler-sdk': [],
  gateway: ['handler-sdk', 'runtime', 'observability'],
  query: ['runtime', 'observability'],
  health: ['query'],
  workbench: ['gateway'],
};

/** Folders of server/src that are not features: the kernel, the wire types, the root and test support. */
const floors = ['core', 'contract', 'main', 'test-support'];

const layerZones = [
  // Default deny: a folder of server/src that is neither a floor nor a declared feature may import nothing
  // of the server (not even itself) until it is declared.
  {
    target: `${src}/!(${[...floors, ...Object.keys(featureNeighbours)].join('|')})/**`,
    from: src,
    message:
      'a new folder of server/src: declare it in eslint.config.mjs featureNeighbours (and docs/architecture.md).',
  },
  // The conformance runners are a test harness: shipped code never imports them.
  { target: src, from: './server/conformance', message: 'server/src never imports server/conformance.' },
  // The kernel and the wire types depend on nothing else of the server.
  { target: `${src}/core`, from: src, except: ['./core'], message: 'core imports only core.' },
  { target: `${src}/contract`, from: src, except: ['./contract'], message: 'contract imports only contract.' },
  // The composition root is imported by nobody.
  { target: `${src}/!(main)/**`, from: `${src}/main`, message: 'nothing imports main.' },
  ...Object.entries(featureNeighbours).map(([feature, neighbours]) => ({
    target: `${src}/${feature}`,
    from: src,
    except: [`./${feature}`, './core', './contract', ...neighbours.map((n) => `./${n}`)],
    message:
      `${feature} may import core, contract${neighbours.map((n) => `, ${n}`).join('')} ` +
      `(eslint.config.mjs featureNeighbours).`,
  })),
  // The gateway is used from outside through its index only (and the command through early-start, which
  // starts a spec worker before the gateway's modules load).
  {
    target: [`${src}/main`, `${src}/workbench`],
    from: `${src}/gateway`,
    except: ['./index.ts', './early-start.ts'],
    message: 'outside the gateway, import gateway/index.js.',
  },
  // Inside the gateway, `model` (the spec's types, JSON pointers, mounts, the validation document) is what `spec`
  // (loading specs, building routes) and `mock` (answering them) share: `spec` uses `mock`, never the reverse.
  {
    target: `${src}/gateway/model`,
    from: `${src}/gateway`,
    except: ['./model'],
    message: 'gateway/model imports nothing else of the gateway.',
  },
  {
    target: `${src}/gateway/mock`,
    from: `${src}/gateway/spec`,
    message: 'gateway/mock never imports gateway/spec: move what both need to gateway/model.',
  },
  // The desktop shell embeds the server through its entry points only.
  {
    target: './electron',
    from: src,
    except: ['./main', './core', './contract'],
    message: 'electron embeds the server through main, core and contract.',
  },
];

const ui = './renderer/src';

/**
 * The longest a shipped source file may be, in lines that are neither blank nor comments: the TypeScript files
 * below, and every renderer stylesheet (renderer/src/stylesheets.test.ts).
 */
export const maxFileLines = 400;

/**
 * The renderer's floors, bottom up, and what each may import besides itself (VS Code's base -> platform ->
 * features): `base` has no React context and no API; `api` talks to the server; `state` holds the stores;
 * `platform` is the kit features share (workbench context, splitter, icons, shortcuts).
 */
const rendererFloors = {
  base: [],
  types: [],
  api: ['base'],
  state: ['base', 'api'],
  platform: ['base', 'api', 'state'],
};

/**
 * What each feature folder of renderer/src may import besides itself and the floors. `app/` is the composition
 * root: it may import anything, and nothing imports it but `main.tsx`.
 */
const rendererFeatureNeighbours = {
  auth: [],
  editor: [],
  explorer: [],
  health: [],
  requests: [],
  mock: ['editor'],
  query: ['editor'],
  panels: ['query', 'health', 'mock', 'requests', 'editor'],
};

const rendererZone = (folder, allowed, message) => ({
  target: `${ui}/${folder}`,
  from: ui,
  except: [`./${folder}`, ...allowed.map((n) => `./${n}`)],
  message,
});

const rendererFolders = ['app', ...Object.keys(rendererFloors), ...Object.keys(rendererFeatureNeighbours)];

const rendererZones = [
  {
    target: `${ui}/!(${rendererFolders.join('|')})/**`,
    from: ui,
    message: 'a new folder of renderer/src: declare it in eslint.config.mjs rendererFeatureNeighbours.',
  },
  { target: `${ui}/!(app)/**`, from: `${ui}/app`, message: 'nothing imports app/, the composition root.' },
  ...Object.entries(rendererFloors).map(([floor, below]) =>
    rendererZone(
      floor,
      below,
      `${floor} may import ${below.join(', ') || 'nothing else'} (eslint.config.mjs rendererFloors).`,
    ),
  ),
  ...Object.entries(rendererFeatureNeighbours).map(([feature, neighbours]) =>
    rendererZone(
      feature,
      [...Object.keys(rendererFloors), ...neighbours],
      `${feature} may import the floors (${Object.keys(rendererFloors).join(', ')})` +
        `${neighbours.map((n) => `, ${n}`).join('')} (eslint.config.mjs rendererFeatureNeighbours).`,
    ),
  ),
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'coverage/**',
      'server/python/**',
      'specs/**',
      'query/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      // import-x parses the files an import leads to (for no-cycle) with the TypeScript parser.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'renderer/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'max-len': ['error', { code: 120, ignoreUrls: false, ignoreRegExpLiterals: false }],
    },
  },
  {
    // The layers bind the code that ships; tests and test support may start whole servers.
    ignores: ['**/*.test.ts', '**/*.test-d.ts', '**/test-support/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...rendererZones] }] },
  },
  {
    // Sizes, for the code that ships (tests may be long lists of cases).
    files: ['server/src/**/*.ts', 'renderer/src/**/*.{ts,tsx}', 'electron/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-d.ts', '**/test-support/**'],
    rules: {
      'max-lines': ['error', { max: maxFileLines, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['renderer/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The renderer reaches the server only through the wire types, and only as types.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '!**/server/src/contract/**'],
              message: 'the renderer imports only server/src/contract.',
            },
            {
              group: ['**/electron/**', '**/bench/**', '**/e2e/**'],
              message: 'the renderer runs in the browser: it never imports the Electron shell, benchmarks or e2e.',
            },
            {
              group: ['**/server/src/contract/**'],
              allowTypeImports: true,
              message: 'contract is imported as types only.',
            },
          ],
        },
      ],
    },
  },
);
