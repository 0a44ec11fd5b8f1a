import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'server/**/*.test.ts',
      'handlers/**/*.test.ts',
      'deploy/**/*.test.ts',
      'electron/**/*.test.ts',
      'renderer/src/**/*.test.ts',
      // Components, rendered in happy-dom (each such file names its environment in a docblock).
      'renderer/src/**/*.test.tsx',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    typecheck: { enabled: true, include: ['server/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
