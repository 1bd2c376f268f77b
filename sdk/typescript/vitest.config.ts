import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The live scenarios share one tenant and the fault proxy's queue: one file at a time.
    fileParallelism: false,
  },
});
