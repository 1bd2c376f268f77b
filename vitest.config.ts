import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that take over half a minute, longest first (durations of a full run
 * on the two-core machine). Without timings from an earlier run (a fresh clone
 * has none) vitest starts the largest files first: the static checks, a small
 * file of five minutes, began 20 minutes in and were the run's last five. A
 * long file left off this list starts late and runs alone at the end.
 */
const LONGEST = [
  'test/static-checks.test.ts',
  'services/developer/src/openapi/contract.int.test.ts',
  'services/projector/src/projector.kill.int.test.ts',
  'test/iac/terraform-provider.int.test.ts',
  'test/sdk/python.int.test.ts',
  'test/credentials-two-processes.int.test.ts',
  'services/developer/src/openapi/generated-clients.int.test.ts',
  'test/master-key-rotation.int.test.ts',
  'packages/cli/src/cli/cli.int.test.ts',
  'test/e2e/start-anywhere.int.test.ts',
  'test/console/console.int.test.ts',
  'test/gateway-processes.int.test.ts',
  'test/sdk/java.int.test.ts',
  'test/e2e/split-targets.int.test.ts',
  'test/sdk/typescript.int.test.ts',
  'test/all-two-processes.int.test.ts',
  'services/gateway/src/log-outage.int.test.ts',
  'test/sdk/quickstarts.int.test.ts',
  'test/e2e/all-embedded.int.test.ts',
  'services/developer/src/openapi/validators.int.test.ts',
  'test/sdk/go.int.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST.findIndex((path) => file.moduleId.endsWith(path));
      return at < 0 ? LONGEST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

const FOLDERS = ['packages', 'console/src', 'services', 'test', 'deploy'];
const UNIT = FOLDERS.map((folder) => `${folder}/**/*.unit.test.ts`);

export default defineConfig({
  test: {
    projects: [
      // Pure logic, no broker, database or process: these files share a worker's loaded modules, which a third of them spent
      // their time importing (60 s of the 73 files alone, 20 s shared).
      { extends: true, test: { name: 'unit', include: UNIT, isolate: false } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: FOLDERS.map((folder) => `${folder}/**/*.test.ts`),
          exclude: [...configDefaults.exclude, ...UNIT],
          globalSetup: ['packages/testing/src/infra.global-setup.ts'],
          // Every file makes its own database, log namespace and processes, and stops them (which the setup file checks): a
          // worker can run the next file without starting Node and loading the test kit's packages again (a CPU-second a
          // file, two minutes of a run).
          setupFiles: ['packages/testing/src/stops-what-it-starts.setup.ts'],
          isolate: false,
        },
      },
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most integration tests wait on a broker, a database or a child process, not the CPU;
    // every file isolates itself, so more files than cores can run at once.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    reporters: [
      'default',
      ['json', { outputFile: 'reports/vitest.json' }],
      ['./packages/testing/src/unhandled-errors.reporter.ts', { outputFile: 'reports/unhandled-errors.json' }],
    ],
  },
});
