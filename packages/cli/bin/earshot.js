#!/usr/bin/env -S node --max-semi-space-size=64
// The `earshot` command. Sources are TypeScript, loaded through tsx, so there is no build step.
// A young generation of 64 MiB semi-spaces: the event path allocates per event, and the default 16 MiB cost the projector
// and the gateway 5–12% of their CPU in scavenges (deploy/README.md). The deployed gateway and projector set it too.
import { register } from 'tsx/esm/api';

// A parent that exits at once (npm on SIGTERM) closes our pipes; the drain after it must not die writing to them.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
