import { describe, expect, it } from 'vitest';
import { resolveTargets, startModules, type Module } from './modules';

const events: string[] = [];
const module = (name: string, dependsOn: string[], fail = false): Module => ({
  name,
  dependsOn,
  start: async () => {
    if (fail) throw new Error('boom');
    events.push(`start ${name}`);
    return { stop: async () => void events.push(`stop ${name}`) };
  },
});

const modules = [
  module('database', []),
  module('log', []),
  module('gateway', ['database', 'log']),
  module('projector', ['database', 'log']),
  module('all', ['gateway', 'projector']),
];

describe('module targets', () => {
  it('resolves a target to its dependencies, each once, dependencies first', () => {
    expect(resolveTargets(['all'], modules).map((m) => m.name)).toEqual(['database', 'log', 'gateway', 'projector', 'all']);
    expect(resolveTargets(['projector', 'gateway'], modules).map((m) => m.name)).toEqual(['database', 'log', 'projector', 'gateway']);
  });

  it('names an unknown target and the known ones', () => {
    expect(() => resolveTargets(['nope'], modules)).toThrow('unknown target "nope"; known: database, log, gateway, projector, all');
  });

  it('detects a cycle', () => {
    expect(() => resolveTargets(['a'], [module('a', ['b']), module('b', ['a'])])).toThrow('cycle: a -> b -> a');
  });

  it('stops in reverse order, and unwinds what started when one module fails', async () => {
    events.length = 0;
    const running = await startModules(resolveTargets(['gateway'], modules));
    await running.stop();
    expect(events).toEqual(['start database', 'start log', 'start gateway', 'stop gateway', 'stop log', 'stop database']);

    events.length = 0;
    await expect(startModules([module('database', []), module('log', []), module('gateway', [], true)])).rejects.toThrow(
      'module gateway failed to start: boom',
    );
    expect(events).toEqual(['start database', 'start log', 'stop log', 'stop database']);
  });
});
