/**
 * Services as modules, in the manner of Loki's `-target`: each declares the
 * modules it needs and how it starts and stops; the entry point only composes.
 */
export interface StartedModule {
  stop(): Promise<void>;
}

export interface Module<Name extends string = string> {
  name: Name;
  dependsOn: readonly Name[];
  start(): Promise<StartedModule>;
}

/** Resolves targets to their transitive dependencies, dependencies first. */
export function resolveTargets<Name extends string>(targets: readonly string[], modules: readonly Module<Name>[]): Module<Name>[] {
  const byName = new Map<string, Module<Name>>(modules.map((m) => [m.name, m]));
  const ordered: Module<Name>[] = [];
  const visiting = new Set<string>();
  const visit = (name: string, path: readonly string[]) => {
    const module = byName.get(name);
    if (!module) throw new Error(`unknown target "${name}"; known: ${[...byName.keys()].join(', ')}`);
    if (ordered.includes(module)) return;
    if (visiting.has(name)) throw new Error(`module dependency cycle: ${[...path, name].join(' -> ')}`);
    visiting.add(name);
    for (const dependency of module.dependsOn) visit(dependency, [...path, name]);
    visiting.delete(name);
    ordered.push(module);
  };
  for (const target of targets) visit(target, []);
  return ordered;
}

export interface RunningModules {
  names: string[];
  stop(): Promise<void>;
}

/** Starts modules in order; if one fails, stops those already started (in reverse) and rethrows. */
export async function startModules(modules: readonly Module[], log: (line: string) => void = () => undefined): Promise<RunningModules> {
  const started: { name: string; handle: StartedModule }[] = [];
  const stopAll = async () => {
    for (const { name, handle } of started.splice(0).reverse()) {
      try {
        await handle.stop();
        log(`stopped ${name}`);
      } catch (error) {
        log(`stopping ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  for (const module of modules) {
    try {
      started.push({ name: module.name, handle: await module.start() });
      log(`started ${module.name}`);
    } catch (error) {
      await stopAll();
      throw new Error(`module ${module.name} failed to start: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  return { names: started.map((s) => s.name), stop: stopAll };
}
