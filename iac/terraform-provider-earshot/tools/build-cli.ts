/**
 * Run by `npm test` before the whole suite: the CLI the provider's tests use, built from the Go module proxy once per
 * machine while nothing else wants the cores (built beside the suite, niced, it waited behind every other test file).
 */
import { terraformCli } from './terraform-cli';

const cli = await terraformCli();
console.error(cli.builtSeconds > 0 ? `[terraform] built ${cli.version} from the Go module proxy in ${cli.builtSeconds} s` : `[terraform] ${cli.version}`);
