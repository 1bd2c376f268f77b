#!/usr/bin/env node
// The `earshot` command. Sources are TypeScript, loaded through tsx, so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
