import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/**/*.test.ts', 'services/**/*.test.ts', 'test/**/*.test.ts', 'deploy/**/*.test.ts'],
    globalSetup: ['test/infra.global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
