#!/usr/bin/env node
// The `earshot` command. Sources are TypeScript, loaded through tsx, so there is no build step.
import { register } from 'tsx/esm/api';

// A parent that exits at once (npm on SIGTERM) closes our pipes; the drain after it must not die writing to them.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
