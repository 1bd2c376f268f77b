/**
 * The live Earshot the scenarios run against, from the environment the
 * harness sets (EARSHOT_API_KEY, EARSHOT_BASE_URL, EARSHOT_WEBHOOK_SECRET,
 * EARSHOT_FAULT_PROXY_URL), and the fault proxy in front of it.
 */
import { Earshot, type ClientOptions, type IngestEvent } from '../../src/index.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`the live scenarios need ${name}: run them through the harness (test/sdk/typescript.int.test.ts) or set it`);
  return value;
}

export const env = {
  get apiKey() {
    return required('EARSHOT_API_KEY');
  },
  get baseUrl() {
    return required('EARSHOT_BASE_URL');
  },
  get webhookSecret() {
    return required('EARSHOT_WEBHOOK_SECRET');
  },
  get proxyUrl() {
    return required('EARSHOT_FAULT_PROXY_URL');
  },
};

/** A client of the live server, from the environment. */
export const client = (options: ClientOptions = {}): Earshot => new Earshot(options);

/** A client whose requests go through the fault proxy. */
export const proxied = (options: ClientOptions = {}): Earshot => new Earshot({ baseUrl: `${env.proxyUrl}/api/v1`, ...options });

export interface ProxiedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  status: number;
}

export const faults = {
  async add(method: string, path: string, answers: { status: number; retryAfter?: number; afterForwarding?: boolean }[]): Promise<void> {
    const response = await fetch(`${env.proxyUrl}/__faults`, { method: 'POST', body: JSON.stringify({ method, path, answers }) });
    if (response.status !== 204) throw new Error(`the fault proxy refused the fault: ${response.status}`);
  },
  async log(): Promise<ProxiedRequest[]> {
    return (await (await fetch(`${env.proxyUrl}/__faults/log`)).json()) as ProxiedRequest[];
  },
  async clear(): Promise<void> {
    await fetch(`${env.proxyUrl}/__faults`, { method: 'DELETE' });
  },
  async dropStreams(): Promise<void> {
    await fetch(`${env.proxyUrl}/__faults/drop-streams`, { method: 'POST' });
  },
};

/** Waits until `check` answers something other than undefined (the read models follow the log within moments). */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const unique = (label: string): string => `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** A short call's events: started, one agent turn, ended. */
export function callEvents(providerCallId: string, agentId: string, startedAt = Date.now() - 60_000): IngestEvent[] {
  const at = (ms: number) => new Date(startedAt + ms).toISOString();
  const call = { provider_call_id: providerCallId, agent_id: agentId };
  return [
    { type: 'call.started', version: '2026-01-01', occurred_at: at(0), call, data: {} },
    {
      type: 'agent.response.generated',
      version: '2026-01-01',
      occurred_at: at(2_000),
      call,
      data: { turn_id: 't1', text: 'How can I help?', latency: { asr_ms: 120, llm_ms: 340, tts_ms: 90, total_ms: 550 } },
    },
    { type: 'call.ended', version: '2026-01-01', occurred_at: at(9_000), call, data: { ended_reason: 'customer_hangup', duration_ms: 9_000 } },
  ];
}
