import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '.data/**',
      '.cache/**',
      'reports/**',
      'coverage/**',
      '**/dist/**',
      'console/dist*/**',
      // Generated from /openapi.json by openapi-typescript; its check is that regenerating changes nothing.
      'console/src/api/schema.d.ts',
      'sdk/typescript/src/generated/**',
      // The Go and Java SDKs and the Terraform provider's Go code are checked by their own languages' tools.
      'sdk/go/**',
      'sdk/java/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Fastify's handlers and hooks are async by contract (a returned value or promise is the answer), await or not.
      '@typescript-eslint/require-await': 'off',
      // A callback may run before the variable it reads is assigned (a subscription that delivers at once): that variable stays let.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // Suites read answers as untyped JSON on purpose (what a client would see), and vitest's asymmetric matchers are `any`.
    files: ['**/*.test.ts', 'test/**/*.ts', 'packages/testing/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    // Services and the packages they run log through the runtime's pino logger (JSON lines, request and tenant ids);
    // the command-line client's output and the test kit's are meant for a person and stay on the console.
    files: ['packages/**/*.ts', 'services/**/*.ts'],
    ignores: ['packages/cli/**', 'packages/testing/**', '**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly', module: 'writable', Buffer: 'readonly', URL: 'readonly' },
    },
  },
);
