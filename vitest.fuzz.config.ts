import { defineConfig } from 'vitest/config';

/** `npm run fuzz`: schemathesis against the live OpenAPI document, with the same infrastructure as the tests. */
export default defineConfig({
  test: {
    include: ['**/*.fuzz.test.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['test/infra.global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
