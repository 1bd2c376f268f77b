import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/**/*.test.ts', 'console/src/**/*.test.ts', 'services/**/*.test.ts', 'test/**/*.test.ts', 'deploy/**/*.test.ts'],
    globalSetup: ['packages/testing/src/infra.global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most integration tests wait on a broker, a database or a child process, not the CPU;
    // every file isolates itself, so more files than cores can run at once.
    maxWorkers: 3,
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
