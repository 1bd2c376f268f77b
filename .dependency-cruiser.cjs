/**
 * The architecture's rules, checked in npm test (test/static-checks.test.ts):
 * a violation fails the suite with the rule's name.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-service-imports-service',
      comment: 'Services are processes that wire packages; what two services share belongs in a package (DESIGN.md: Layout).',
      severity: 'error',
      from: { path: '^services/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^services/([^/]+)/', pathNot: '^services/$1/' },
    },
    {
      name: 'no-package-imports-service',
      comment: 'Packages hold the domain and the machinery; only the composition root (cli) and the test kit may know the services.',
      severity: 'error',
      from: { path: '^packages/(?!cli/|testing/)[^/]+/', pathNot: '\\.test\\.ts$' },
      to: { path: '^services/' },
    },
    {
      name: 'test-kit-loads-services-when-started',
      comment:
        'Nearly every suite imports the test kit; a service (or the CLI, which composes them all) loads when a test starts it, so a suite that needs only a database does not import the whole system.',
      severity: 'error',
      // The projector's child process is a program of its own, not part of the kit's entry point.
      from: { path: '^packages/testing/src/', pathNot: ['\\.test\\.ts$', '^packages/testing/src/fixtures/projector-process\\.ts$'] },
      to: { path: ['^services/', '^packages/cli/'], dependencyTypesNot: ['type-only', 'dynamic-import'] },
    },
    {
      name: 'no-relative-import-across-workspaces',
      comment: 'A workspace is reached through its package name and entry point, never by a relative path into its files.',
      severity: 'error',
      from: { path: '^(packages|services|sdk|console|iac)/([^/]+)/' },
      to: { dependencyTypes: ['local'], dependencyTypesNot: ['aliased-workspace'], pathNot: '^$1/$2/' },
    },
    {
      name: 'no-relative-import-into-workspaces',
      comment: 'Suites and benchmarks outside the workspaces use them by package name too.',
      severity: 'error',
      from: { path: '^(test|bench|deploy|scripts)/' },
      to: { dependencyTypes: ['local'], dependencyTypesNot: ['aliased-workspace'], path: '^(packages|services)/' },
    },
    {
      name: 'projections-are-pure',
      comment: 'A projection decides what an event does to a read model: it imports the contracts and the domain, no driver (STYLE.md, emmett).',
      severity: 'error',
      from: { path: '\\.projection\\.ts$' },
      to: {
        // Its own read model's folder and the shared projection types, but not the queries beside it (they hold a database handle).
        pathNot: [
          '^packages/read-models/src/(?!migrations\\.ts$|.*\\.(queries|store)\\.ts$)',
          '^packages/(contracts|events|metrics)/',
          '^node_modules/(zod|uuid)/',
        ],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'projections-reach-no-database',
      comment: 'Not even through a module they import: what a projection decides depends on the event alone, never on a read.',
      severity: 'error',
      from: { path: '\\.projection\\.ts$' },
      to: { path: ['^packages/db/', '^node_modules/(pg|@databases)/'], reachable: true },
    },
    {
      name: 'contracts-depend-on-nothing-of-ours',
      comment: 'The zod contracts are the bottom of the graph: every other workspace may use them, they use none.',
      severity: 'error',
      from: { path: '^packages/contracts/' },
      to: { path: '^(packages|services)/', pathNot: '^packages/contracts/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle between modules makes their order of loading, and their meaning, depend on each other.',
      severity: 'error',
      from: { pathNot: '\\.test\\.ts$' },
      to: { circular: true, viaOnly: { pathNot: '\\.test\\.ts$' } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.data|\\.cache|reports|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'], extensions: ['.ts', '.js', '.json'] },
  },
};
