import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Each read model's tables, by its folder in packages/read-models/src, and the
 * other read models' tables a folder's statements may also read (a call's
 * detail holds its turns, transcript and traces). Folders without tables of
 * their own (`across`) hold the statements that read several in one round trip.
 */
const READ_MODEL_TABLES = {
  calls: { own: ['calls'], reads: ['turns', 'transcripts', 'traces'] },
  turns: { own: ['turns'] },
  transcripts: { own: ['transcripts'] },
  traces: { own: ['traces'] },
  outcomes: { own: ['outcomes'] },
  incidents: { own: ['incidents'] },
  deployments: { own: ['deployments'] },
  alerts: { own: ['alerts'] },
  'alert-rules': { own: ['alert_rules'] },
  invoices: { own: ['billing_invoices'] },
  'billing-plans': { own: ['billing_plans'] },
  'usage-meters': { own: ['usage_meters'] },
  'metric-rollups': { own: ['metric_rollups', 'metric_rollup_changes', 'metric_rollup_folds', 'metric_rollup_folded'] },
};
const ALL_TABLES = Object.values(READ_MODEL_TABLES).flatMap((model) => model.own);

/** An `sql` template that reads or deletes from one of `tables` (a select, join or delete naming it). */
const sqlNaming = (tables, message) => ({
  selector: `TaggedTemplateExpression[tag.name='sql'] TemplateElement[value.raw=/\\b(from|join)\\s+(${tables.join('|')})\\b/i]`,
  message,
});

/** The rule `read-model-sql-beside-its-projection`: a read model's SQL lives in its folder of @earshot/read-models. */
const readModelSql = [
  {
    files: ['packages/**/*.ts', 'services/**/*.ts'],
    // Tests read the tables to check what was projected; the test kit's fixtures likewise.
    ignores: ['packages/read-models/**', 'packages/testing/**', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        sqlNaming(ALL_TABLES, 'read-model-sql-beside-its-projection: a read model’s SQL lives in its folder of @earshot/read-models; call its query function.'),
      ],
    },
  },
  ...Object.entries(READ_MODEL_TABLES).map(([folder, { own, reads = [] }]) => ({
    files: [`packages/read-models/src/${folder}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        sqlNaming(
          ALL_TABLES.filter((table) => !own.includes(table) && !reads.includes(table)),
          `read-model-sql-beside-its-projection: ${folder}/ holds the SQL of its own tables; another read model's belongs in its folder (or in across/ when one statement reads several).`,
        ),
      ],
    },
  })),
];

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
    // The three programs named here, built once each for the whole run: 20% less CPU than the project service's file-by-file lookup.
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json', './console/tsconfig.json', './sdk/typescript/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
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
  ...readModelSql,
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly', module: 'writable', Buffer: 'readonly', URL: 'readonly' },
    },
  },
);
