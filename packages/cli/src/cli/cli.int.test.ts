import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CallDetailSchema, CallResourceSchema, CallTurnSchema, IncidentSchema, StoredEventSchema } from '@earshot/contracts';
import { Earshot } from '@earshot/sdk';
import { ADMIN_TOKEN, callScript, debianProgram, startEarshot, startFaultProxy, type EarshotTenant, type TestEarshot } from '@earshot/testing';
import type { Command } from 'commander';
import { EXIT } from './exit-codes';
import { buildProgram } from './program';
import { runCli, shellWords } from './run-cli';

const DAY_MS = 86_400_000;
const BIN = fileURLToPath(new URL('../../bin/earshot.js', import.meta.url));

async function withEnv<T>(env: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const before = { ...process.env };
  Object.assign(process.env, env);
  try {
    return await run();
  } finally {
    process.env = before;
  }
}
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** Each line of NDJSON (or the one JSON document) checked against the JSON Schema of a zod contract. */
function expectSchema(schema: z.ZodType, documents: unknown[]): void {
  const validate = ajv.compile(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }));
  expect(documents.length).toBeGreaterThan(0);
  for (const document of documents) expect({ valid: validate(document), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
}

const ndjson = (text: string): unknown[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);

/** Tables carry the tenant's random uuids: numbered in order of appearance, same width, so the layout stays in the snapshot. */
function normalised(text: string): string {
  const seen = new Map<string, string>();
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (uuid) => {
    if (!seen.has(uuid)) seen.set(uuid, `00000000-0000-4000-8000-${String(seen.size + 1).padStart(12, '0')}`);
    return seen.get(uuid) ?? uuid;
  });
}

function leaves(command: Command, path: string[] = []): { path: string[]; command: Command }[] {
  const children = command.commands.filter((c) => c.name() !== 'help');
  return [{ path, command }, ...children.flatMap((c) => leaves(c, [...path, c.name()]))];
}

describe('earshot against a live instance', () => {
  let earshot: TestEarshot;
  let tenant: EarshotTenant;
  let sdk: Earshot;
  let snapshotCallId: string;
  const yesterday = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS;
  const saved = { ...process.env };
  // Every folder the file makes (configuration, data, examples' working folders, completion scripts), removed at the end.
  let scratch: string;
  const folder = (name: string) => mkdtempSync(join(scratch, `${name}-`));

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'earshot-cli-'));
    earshot = await startEarshot('cli');
    tenant = await earshot.createTenant('CLI Voice');
    const base = `${earshot.origin}/api/v1`;
    Object.assign(process.env, {
      EARSHOT_BASE_URL: base,
      EARSHOT_API_KEY: tenant.apiKey,
      EARSHOT_WEBHOOK_SECRET: tenant.webhookSecret,
      EARSHOT_CONFIG_DIR: folder('config'),
      EARSHOT_DATA_DIR: folder('data'),
    });
    sdk = new Earshot({ apiKey: tenant.apiKey, baseUrl: base });
    await earshot.project([
      ...callScript({ tenant: tenant.id, providerCallId: 'snap-1', turns: 3, startMs: Date.parse('2026-01-08T09:30:00.000Z') }),
      ...callScript({ tenant: tenant.id, providerCallId: 'snap-2', turns: 2, ending: 'failed', startMs: Date.parse('2026-01-08T11:00:00.000Z') }),
      ...callScript({ tenant: tenant.id, providerCallId: 'y-fail-support', turns: 2, ending: 'failed', startMs: yesterday + 9 * 3_600_000 }),
      ...callScript({ tenant: tenant.id, providerCallId: 'y-ok-support', turns: 2, startMs: yesterday + 10 * 3_600_000 }),
      ...callScript({
        tenant: tenant.id,
        providerCallId: 'y-fail-sales',
        agentId: 'agent_sales',
        turns: 2,
        ending: 'failed',
        startMs: yesterday + 11 * 3_600_000,
      }),
    ]);
    const snap = (await sdk.calls.list({ from: '2026-01-08T00:00:00Z', to: '2026-01-08T10:00:00Z' }).toArray())[0];
    if (!snap) throw new Error('the projected call is not listed');
    snapshotCallId = snap.id;
  });
  afterAll(async () => {
    process.env = saved;
    await earshot?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('logs in: checks the key against the API, stores a 0600 profile, and whoami reads it back', async () => {
    const base = process.env.EARSHOT_BASE_URL ?? '';
    delete process.env.EARSHOT_BASE_URL;
    delete process.env.EARSHOT_API_KEY;
    try {
      const refused = await runCli(['login', '--url', base, '--key', 'ear_live_not_a_key']);
      expect(refused.code).toBe(EXIT.auth);
      expect(refused.err).toMatch(/^earshot: UNAUTHORIZED: .*earshot login/);
      expect(refused.err.trim().split('\n')).toHaveLength(1);

      const login = await runCli(['login', '--url', base, '--key', tenant.apiKey, '--profile', 'work']);
      expect(login).toMatchObject({ code: 0, out: expect.stringContaining('Logged in to CLI Voice') });
      expect(statSync(join(process.env.EARSHOT_CONFIG_DIR ?? '', 'profiles.json')).mode & 0o777).toBe(0o600);

      const whoami = await runCli(['whoami', '--json']);
      expect(whoami.code).toBe(0);
      expect(JSON.parse(whoami.out)).toMatchObject({
        source: 'profile "work"',
        tenant: { id: tenant.id, name: 'CLI Voice', status: 'active' },
        key: { environment: 'production', scopes: expect.arrayContaining(['calls:read']) },
      });
      const narrow = await earshot.createKey(tenant.id, ['calls:read']);
      const limited = await runCli(['whoami', '--key', narrow]);
      expect(limited).toMatchObject({ code: 0, out: expect.stringContaining('this key may not read keys') });
      const forbidden = await runCli(['incidents', 'list', '--key', narrow]);
      expect(forbidden).toMatchObject({ code: EXIT.auth, err: expect.stringMatching(/^earshot: FORBIDDEN: /) });
    } finally {
      process.env.EARSHOT_BASE_URL = base;
      process.env.EARSHOT_API_KEY = tenant.apiKey;
    }
  });

  it("lists yesterday's failed calls of one agent, as a table and as NDJSON matching the Call contract", async () => {
    const args = ['calls', 'list', '--status', 'failed', '--agent', 'agent_support', '--from', 'yesterday', '--to', 'today'];
    const json = await runCli([...args, '--json']);
    expect(json.code).toBe(0);
    const calls = ndjson(json.out);
    expectSchema(CallResourceSchema, calls);
    expect(calls.map((c) => (c as { providerCallId: string }).providerCallId)).toEqual(['y-fail-support']);
    const shown = await runCli(args);
    expect(shown.out).toContain('agent_support');
    expect(shown.out).not.toContain('agent_sales');
  });

  it('prints tables people read: the call list, one call and its turn timeline', async () => {
    const list = await runCli(['calls', 'list', '--from', '2026-01-08', '--to', '2026-01-09']);
    expect(normalised(list.out)).toMatchSnapshot('calls list');
    const get = await runCli(['calls', 'get', snapshotCallId]);
    expect(normalised(get.out)).toMatchSnapshot('calls get');
    const timeline = await runCli(['calls', 'timeline', snapshotCallId]);
    expect(normalised(timeline.out)).toMatchSnapshot('calls timeline');

    expectSchema(CallDetailSchema.shape.call, [JSON.parse((await runCli(['calls', 'get', snapshotCallId, '--json'])).out)]);
    const turns = ndjson((await runCli(['calls', 'timeline', snapshotCallId, '--json'])).out);
    expectSchema(CallTurnSchema, turns);
    expect(turns).toHaveLength(3);
  });

  it('acknowledges, notes and resolves an incident', async () => {
    const opened = await runCli(['incidents', 'open', '--title', 'Slow answers', '--severity', 'high', '--json']);
    const { id } = z.object({ id: z.string() }).parse(JSON.parse(opened.out));
    expect((await runCli(['incidents', 'ack', id, '--note', 'on it'])).out).toBe(`acknowledged incident ${id}\n`);
    expect((await runCli(['incidents', 'note', id, 'vendor says 10 minutes'])).code).toBe(0);
    const listed = ndjson((await runCli(['incidents', 'list', '--status', 'acknowledged', '--json'])).out);
    expectSchema(IncidentSchema, listed);
    expect(listed).toEqual([
      expect.objectContaining({
        id,
        status: 'acknowledged',
        notes: [expect.objectContaining({ note: 'on it' }), expect.objectContaining({ note: 'vendor says 10 minutes' })],
      }),
    ]);
    expect((await runCli(['incidents', 'resolve', id])).code).toBe(0);
    expect((await sdk.incidents.list({ status: 'resolved' }).toArray()).map((i) => i.id)).toContain(id);
  });

  it('tails the live stream while earshot demo sends calls, as NDJSON of stored events', async () => {
    const tail = runCli(['tail', '--type', 'call.started', '--count', '2', '--json']);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const demo = await runDemo();
    const tailed = await tail;
    expect(demo.code).toBe(0);
    expect(tailed.code).toBe(0);
    // The demo prints its summary on the same stdout: the tail's lines are the JSON ones.
    const events = ndjson(
      tailed.out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .join('\n'),
    );
    expectSchema(z.object({ position: z.string(), event: StoredEventSchema }), events);
    expect(events.map((e) => (e as { event: { type: string } }).event.type)).toEqual(['call.started', 'call.started']);
  });

  it('tail resumes after a dropped connection: every event once, none lost while it was away', async () => {
    const proxy = await startFaultProxy(earshot.origin);
    try {
      const before = callScript({ tenant: tenant.id, providerCallId: `resume-a-${Date.now()}`, agentId: 'agent_resume', turns: 1, startMs: Date.now() });
      const during = callScript({ tenant: tenant.id, providerCallId: `resume-b-${Date.now()}`, agentId: 'agent_resume', turns: 1, startMs: Date.now() });
      const count = before.length + during.length;
      const tail = runCli(['tail', '--agent', 'agent_resume', '--count', String(count), '--json', '--url', `${proxy.url}/api/v1`]);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await earshot.project(before);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // The events appended while the connection is down reach only a tail that reconnects from its last position.
      await fetch(`${proxy.url}/__faults/drop-streams`, { method: 'POST' });
      await earshot.project(during);
      const tailed = await tail;
      expect(tailed.code).toBe(0);
      const keys = ndjson(tailed.out).map((line) => (line as { event: { idempotency_key: string } }).event.idempotency_key);
      expect(keys.sort()).toEqual([...before, ...during].map((e) => e.idempotency_key).sort());
    } finally {
      await proxy.close();
    }
  });

  /** The demo runs apart from the tail's output capture: both write to stdout, and the tail's lines must stay its own. */
  async function runDemo(): Promise<{ code: number }> {
    const { main } = await import('../main');
    return { code: await main(['demo', '--calls', '3', '--seed', '5', '--rate', '2000']) };
  }

  it('answers usage errors with exit 2, the closest option, and one line', async () => {
    const typo = await runCli(['calls', 'list', '--limt', '3']);
    expect(typo).toMatchObject({ code: EXIT.usage, err: "earshot: unknown option '--limt' (Did you mean --limit?)\n" });
    expect((await runCli(['--version'])).out).toMatch(/^earshot \d+\.\d+\.\d+ /);
    expect((await runCli(['keys', '--help'])).code).toBe(0);
    expect((await runCli(['calls', 'get', 'no-such-call'])).err).toMatch(/^earshot: NOT_FOUND: .*; check the id/);
    expect((await runCli(['nonsense'])).code).toBe(EXIT.usage);
  });

  it('offers bash completion from the command tree', async () => {
    const { spawnSync } = await import('node:child_process');
    const script = (await runCli(['completion', 'bash'])).out;
    const complete = (words: string[]) =>
      spawnSync(
        'bash',
        ['-c', `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _earshot; echo "\${COMPREPLY[*]}"`],
        {
          encoding: 'utf8',
        },
      ).stdout.trim();
    expect(complete(['earshot', 'inc'])).toBe('incidents');
    expect(complete(['earshot', 'incidents', '']).split(' ')).toEqual(expect.arrayContaining(['list', 'open', 'ack', 'resolve', 'note']));
    expect(complete(['earshot', 'calls', 'list', '--st'])).toBe('--status');
  });

  it('offers zsh and fish completion that the shells themselves load and answer', async () => {
    const { spawnSync } = await import('node:child_process');
    const dir = folder('completion');
    const fishFile = join(dir, 'earshot.fish');
    writeFileSync(fishFile, (await runCli(['completion', 'fish'])).out);
    const fish = (line: string) =>
      spawnSync(debianProgram('fish', '/usr/bin/fish'), ['--no-config', '-c', `source ${fishFile}; complete -C '${line}'`], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    expect(fish('earshot inc')).toEqual(['incidents']);
    expect(fish('earshot incidents ')).toEqual(expect.arrayContaining(['list', 'open', 'ack', 'resolve', 'note']));
    expect(fish('earshot calls list --st')).toEqual(['--status']);

    const zshFile = join(dir, '_earshot');
    writeFileSync(zshFile, (await runCli(['completion', 'zsh'])).out);
    const zsh = debianProgram('zsh', '/usr/bin/zsh');
    expect(spawnSync(zsh, ['-n', zshFile]).status).toBe(0);
    // A .zshrc loads compinit before completion scripts; bashcompinit calls the function with 0-based arrays (ksharrays), and
    // compsys, not the function, then narrows the candidates to what was typed.
    const answer = spawnSync(
      zsh,
      [
        '-f',
        '-c',
        `autoload -U +X compinit && compinit -u; source ${zshFile}; setopt ksharrays; COMP_WORDS=(earshot calls ti); COMP_CWORD=2; _earshot; print -r -- "\${COMPREPLY[*]}"`,
      ],
      { encoding: 'utf8' },
    );
    expect(answer.stderr).toBe('');
    expect(answer.stdout.trim().split(/\s+/)).toEqual(expect.arrayContaining(['list', 'get', 'timeline']));
    expect(answer.stdout).not.toContain('incidents');
  });

  it('carries two examples in the help of every command, and each runs', async () => {
    const program = buildProgram();
    const failures: string[] = [];
    const missing: string[] = [];
    for (const { path } of leaves(program)) {
      const help = await runCli([...path, '--help']);
      const examples = [...help.out.matchAll(/^ {2}\$ (earshot .*)$/gm)].map((m) => m[1] ?? '');
      if (examples.length < 2) missing.push(['earshot', ...path].join(' '));
      for (const example of examples) {
        const vars = await variablesFor(example);
        const run = path[0] === 'serve' ? await serveUntilListening(shellWords(example, vars).slice(1)) : await runExample(example, vars);
        if (run.code !== 0) failures.push(`${example} → ${run.code}: ${run.err.trim()}`);
      }
    }
    expect({ missing, failures }).toEqual({ missing: [], failures: [] });
  }, 600_000);

  /** The ids an example names, fresh for each, so a delete or a revoke does not break the next example. */
  async function variablesFor(example: string): Promise<Record<string, string>> {
    const vars: Record<string, string> = {
      EARSHOT_BASE_URL: process.env.EARSHOT_BASE_URL ?? '',
      EARSHOT_API_KEY: tenant.apiKey,
      EARSHOT_WEBHOOK_SECRET: tenant.webhookSecret,
      CALL_ID: snapshotCallId,
    };
    if (example.includes('$INCIDENT_ID')) vars.INCIDENT_ID = (await sdk.incidents.create({ title: 'example', severity: 'low' })).id;
    if (example.includes('$RULE_ID')) vars.RULE_ID = (await sdk.alertRules.create({ metric: 'calls.total', comparison: 'gt', threshold: 1e9 })).id;
    if (example.includes('$DEPLOYMENT_ID')) vars.DEPLOYMENT_ID = (await sdk.deployments.create({ agent: 'agent_support', version: 'v1' })).id;
    if (example.includes('$KEY_ID')) vars.KEY_ID = (await sdk.keys.create({ name: 'example', scopes: ['calls:read'] })).key.id;
    if (example.includes('$CONNECTION_ID'))
      vars.CONNECTION_ID = (await sdk.providers.connect({ provider: 'standard-webhooks', name: 'example' })).connection.id;
    if (example.includes('$TENANT_ID')) vars.TENANT_ID = (await earshot.createTenant('example tenant')).id;
    if (example.includes('$DOOMED_TENANT_ID')) vars.DOOMED_TENANT_ID = (await earshot.createTenant('doomed tenant')).id;
    Object.assign(process.env, instanceEnv());
    return vars;
  }

  /** What `serve`, `replay`, `export` and `tenant` read to reach this instance's database, log and operator API. */
  function instanceEnv(): Record<string, string> {
    const config = earshot.runtime.config;
    return {
      DATABASE_URL: config.DATABASE_URL ?? '',
      KAFKA_BROKERS: (config.KAFKA_BROKERS ?? []).join(','),
      EARSHOT_LOG_NAMESPACE: config.EARSHOT_LOG_NAMESPACE,
      EARSHOT_MASTER_KEY: config.EARSHOT_MASTER_KEY ?? '',
      EARSHOT_ADMIN_TOKEN: ADMIN_TOKEN,
    };
  }

  /** `earshot serve` runs until a signal: the bin in a process of its own, stopped by SIGTERM once it listens; a clean drain exits 0. */
  async function serveUntilListening(argv: string[]): Promise<{ code: number; err: string }> {
    const { spawn } = await import('node:child_process');
    const env = { ...process.env, ...instanceEnv() };
    const child = spawn(process.execPath, [BIN, ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
    const listening = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 180_000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (/listening on http:\/\/127\.0\.0\.1:\d+/.test(out)) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      void exited.then(() => resolve(false));
    });
    child.kill('SIGTERM');
    const code = await exited;
    return { code: listening ? code : -1, err: listening ? err : `never listened: ${out} ${err}` };
  }

  async function runExample(example: string, vars: Record<string, string>) {
    const argv = shellWords(example, vars).slice(1);
    if (argv[0] === 'secret') {
      // Each rotation keeps one previous secret: the tenant the other examples sign with must keep its own.
      const other = await earshot.createTenant('secret rotation');
      return withEnv({ EARSHOT_API_KEY: other.apiKey }, () => runCli(argv));
    }
    if (argv[0] !== 'tail') {
      const cwd = process.cwd();
      process.chdir(folder('example'));
      try {
        return await runCli(argv);
      } finally {
        process.chdir(cwd);
      }
    }
    // A tail ends after --count events: send a call while it listens.
    const tail = runCli(argv);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await earshot.project(callScript({ tenant: tenant.id, providerCallId: `tail-${Date.now()}`, turns: 1, startMs: Date.now() }));
    return tail;
  }
});
