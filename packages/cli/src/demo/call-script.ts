import { CURRENT_EVENT_VERSION, type IncomingEventInput, type ProviderEventType } from '@earshot/contracts';
import type { DemoAgent } from './demo-agents';
import type { Random } from './random';

/** How a call ends, which decides its status: completed, escalated, abandoned, failed or still in progress. */
export const CALL_FATES = ['completed', 'handed_to_agent', 'transferred', 'handed_to_human', 'abandoned', 'failed', 'in_progress'] as const;
export type CallFate = (typeof CALL_FATES)[number];

export interface DemoOutcome {
  id: string;
  provider: string;
  providerCallId: string;
  agent: string;
  type: string;
  value: string;
  revenueUsd: number | null;
}

export interface ScriptedCall {
  provider: string;
  providerCallId: string;
  agentId: string;
  fate: CallFate;
  envelopes: IncomingEventInput[];
  outcome: DemoOutcome | undefined;
}

export interface CallPlan {
  agent: DemoAgent;
  provider: string;
  fate: CallFate;
  /** Milliseconds since the epoch. */
  startedAt: number;
}

type DataOf<T extends ProviderEventType> = Extract<IncomingEventInput, { type: T }>['data'];

const round = (ms: number) => Math.max(1, Math.round(ms));
const cents = (usd: number) => Math.round(usd * 100) / 100;

/**
 * One call as its provider reports it, event by event, in the order they
 * happen. Latencies are log-normal per component (ASR, LLM, TTS) with a few
 * slow turns; tool calls sometimes fail; the fate decides the ending.
 */
/** The agent's workflow state at `index`, which the script only ever asks for within the workflow. */
function workflowStep(agent: DemoAgent, index: number): string {
  const step = agent.workflow[index];
  if (step === undefined) throw new Error(`${agent.id} has no workflow step ${index}`);
  return step;
}

export function scriptCall(random: Random, plan: CallPlan): ScriptedCall {
  const { agent, provider, fate } = plan;
  const providerCallId = `${provider}_${random.hex(16)}`;
  const version = random.chance(0.7) ? (agent.versions[agent.versions.length - 1] as string) : random.pick(agent.versions);
  const call = {
    provider_call_id: providerCallId,
    agent_id: agent.id,
    direction: agent.direction,
    from_number: agent.direction === 'inbound' ? `+1555${random.int(1_000_000, 9_999_999)}` : '+18005550100',
    to_number: agent.direction === 'inbound' ? '+18005550100' : `+1555${random.int(1_000_000, 9_999_999)}`,
    agent_version: version,
    workflow_id: `${agent.id}-flow`,
    customer_id: `cus_${random.hex(8)}`,
  };
  const envelopes: IncomingEventInput[] = [];
  let at = plan.startedAt;
  const emit = <T extends ProviderEventType>(type: T, data: DataOf<T>, when = at) => {
    envelopes.push({
      type,
      version: CURRENT_EVENT_VERSION,
      idempotency_key: `${providerCallId}:${envelopes.length}:${type}`,
      occurred_at: new Date(when).toISOString(),
      call,
      data,
    } as IncomingEventInput);
  };

  emit('call.started', {
    call_type: 'phone',
    telephony_provider: random.pick(['twilio', 'telnyx', 'vonage']),
    telephony_call_id: `CA${random.hex(24)}`,
    llm_model: agent.llmModel,
    asr_model: 'deepgram:nova-2',
    tts_voice: agent.voice,
    language: 'en-US',
  });
  at += random.int(80, 400);
  emit('call.ringing', { telephony_provider: 'twilio' });
  const ring = random.int(1_500, 9_000);

  if (fate === 'abandoned') {
    at += random.int(15_000, 32_000);
    const reason = random.pick(['customer-did-not-answer', 'customer-busy', 'voicemail']);
    emit('call.ended', { ended_reason: reason, disconnection_reason: 'no_answer', duration_ms: 0, cost_usd: 0.01 });
    emit('call.completed', { duration_ms: 0, ended_reason: reason, success: false, cost_usd: 0.01 }, at + random.int(500, 3_000));
    return { provider, providerCallId, agentId: agent.id, fate, envelopes, outcome: undefined };
  }

  at += ring;
  const answeredAt = at;
  emit('call.answered', { ring_duration_ms: ring, answered_by: 'human' });
  const streamId = `st_${random.hex(10)}`;
  emit('audio.stream.started', { stream_id: streamId, codec: 'pcm_mulaw', sample_rate: 8_000, channels: 1, direction: 'both' }, at + 40);
  emit('workflow.state.changed', { from_state: null, to_state: agent.workflow[0] as string, node: 'start', trigger: 'call_answered' });

  const exchanges =
    fate === 'in_progress'
      ? agent.exchanges.slice(0, random.int(1, 2))
      : agent.exchanges.slice(0, random.int(Math.min(3, agent.exchanges.length), agent.exchanges.length));
  const failAt = fate === 'failed' ? random.int(0, Math.min(2, exchanges.length - 1)) : -1;
  const escalateAt = fate === 'transferred' || fate === 'handed_to_human' || fate === 'handed_to_agent' ? Math.min(2, exchanges.length - 1) : -1;
  let state = 0;
  let slowTurns = 0;

  for (const [turn, [customer, reply]] of exchanges.entries()) {
    const turnId = `${providerCallId}-t${turn + 1}`;
    const speech = random.int(1_400, 4_200);
    const spokenFrom = at - answeredAt;
    if (random.chance(0.7))
      emit(
        'transcript.partial',
        {
          turn_id: turnId,
          speaker: 'customer',
          text: customer.split(' ').slice(0, 4).join(' '),
          start_ms: spokenFrom,
          confidence: cents(random.float() * 0.2 + 0.6),
        },
        at + speech / 2,
      );
    at += speech;
    emit('transcript.final', {
      turn_id: turnId,
      speaker: 'customer',
      text: customer,
      start_ms: spokenFrom,
      end_ms: at - answeredAt,
      confidence: cents(random.float() * 0.15 + 0.84),
      language: 'en-US',
    });

    if (turn === failAt) {
      const component = random.pick(['llm', 'tts', 'telephony'] as const);
      const vendor = component === 'llm' ? agent.llmModel.split('-')[0] : component === 'tts' ? agent.voice.split(':')[0] : 'twilio';
      emit(
        'provider.error.received',
        {
          component,
          provider_error_code: component === 'telephony' ? 'SIP_503' : 'upstream_unavailable',
          message: `${vendor} answered 503 three times in a row`,
          vendor,
          http_status: 503,
          retryable: false,
        },
        at + 900,
      );
      at += random.int(1_500, 4_000);
      emit('call.failed', {
        error_code: `${component}_unavailable`,
        message: `the ${component} provider stayed unavailable`,
        stage: 'conversation',
        sip_status_code: component === 'telephony' ? 503 : null,
        retryable: true,
      });
      break;
    }

    const asr = round(random.lognormal(190, 0.35));
    const slow = random.chance(0.06);
    if (slow) slowTurns += 1;
    let llm = round(
      random.lognormal(agent.llmModel.includes('mini') || agent.llmModel.includes('haiku') ? 420 : 650, 0.45) * (slow ? random.float() * 3 + 3 : 1),
    );
    const tts = round(random.lognormal(210, 0.4));
    const tool = turn >= 1 ? agent.tools[turn - 1] : undefined;
    if (tool && random.chance(0.75)) {
      const toolCallId = `tc_${random.hex(10)}`;
      const duration = round(random.lognormal(380, 0.6));
      const started = at + asr + 120;
      emit('tool.call.started', { tool_call_id: toolCallId, name: tool.name, arguments: tool.arguments, turn_id: turnId }, started);
      if (random.chance(tool.fails))
        emit('tool.call.failed', { tool_call_id: toolCallId, name: tool.name, turn_id: turnId, error: tool.error, duration_ms: duration }, started + duration);
      else
        emit(
          'tool.call.completed',
          { tool_call_id: toolCallId, name: tool.name, turn_id: turnId, result: tool.result, duration_ms: duration },
          started + duration,
        );
      llm += duration;
    }
    if (random.chance(0.05)) {
      emit(
        'provider.error.received',
        {
          component: 'asr',
          provider_error_code: 'stream_reset',
          message: 'ASR websocket reset; reconnected',
          vendor: 'deepgram',
          http_status: null,
          retryable: true,
        },
        at + round(asr / 2),
      );
    }
    const total = asr + llm + tts + random.int(15, 60);
    at += total;
    const tokensIn = random.int(600, 2_400);
    emit('agent.response.generated', {
      turn_id: turnId,
      latency: { asr_ms: asr, llm_ms: llm, tts_ms: tts, total_ms: total },
      text: reply,
      model: agent.llmModel,
      tokens_in: tokensIn,
      tokens_out: random.int(18, 90),
      llm_ttft_ms: round(llm * 0.55),
      tts_ttfb_ms: round(tts * 0.8),
      eou_delay_ms: round(random.lognormal(280, 0.3)),
      interrupted: random.chance(0.06),
    });
    const replyMs = reply.length * 62;
    emit('transcript.final', {
      turn_id: turnId,
      speaker: 'agent',
      text: reply,
      start_ms: at - answeredAt,
      end_ms: at - answeredAt + replyMs,
      confidence: 1,
      language: 'en-US',
    });
    at += replyMs;
    if (state < agent.workflow.length - 1 && random.chance(0.8)) {
      emit('workflow.state.changed', {
        from_state: workflowStep(agent, state),
        to_state: workflowStep(agent, state + 1),
        node: `node_${state + 1}`,
        trigger: 'intent_detected',
      });
      state += 1;
    }

    if (turn === escalateAt && fate === 'transferred') {
      emit('call.transferred', { to: 'sip:tier2@support.example.com', reason: 'customer asked for a person', transfer_type: random.pick(['warm', 'cold']) });
      at += random.int(2_000, 6_000);
      break;
    }
    if (turn === escalateAt && (fate === 'handed_to_human' || fate === 'handed_to_agent')) {
      const handoffId = `ho_${random.hex(8)}`;
      const human = fate === 'handed_to_human';
      const target = human ? 'tier-2-support' : 'billing-agent';
      emit('handoff.initiated', {
        handoff_id: handoffId,
        target,
        target_kind: human ? 'human' : 'agent',
        reason: human ? 'frustrated customer' : 'billing question',
      });
      const wait = human ? random.int(8_000, 90_000) : random.int(300, 1_500);
      at += wait;
      emit('handoff.completed', {
        handoff_id: handoffId,
        target,
        target_kind: human ? 'human' : 'agent',
        wait_ms: wait,
        accepted_by: human ? random.pick(['maria', 'dev', 'kenji']) : 'billing-agent',
      });
      if (human) break;
    }
  }

  if (fate === 'in_progress') return { provider, providerCallId, agentId: agent.id, fate, envelopes, outcome: undefined };

  const duration = at - answeredAt;
  const success = fate === 'completed' || fate === 'handed_to_agent';
  const cost = cents((duration / 60_000) * 0.11 + 0.02);
  const endReason = fate === 'failed' ? 'pipeline-error' : random.pick(['customer-ended-call', 'assistant-ended-call']);
  emit('audio.stream.stopped', { stream_id: streamId, duration_ms: duration, reason: fate === 'failed' ? 'error' : 'hangup', direction: 'both' });
  if (success && state < agent.workflow.length - 1)
    emit('workflow.state.changed', {
      from_state: workflowStep(agent, state),
      to_state: workflowStep(agent, agent.workflow.length - 1),
      node: 'end',
      trigger: 'goal_reached',
    });
  emit('call.ended', { ended_reason: endReason, disconnection_reason: fate === 'failed' ? 'error' : 'hangup', duration_ms: duration, cost_usd: cost });
  const recordingId = `rec_${random.hex(12)}`;
  const recordingUrl = `https://recordings.example.com/${providerCallId}.wav`;
  at += random.int(2_000, 20_000);
  emit('recording.available', {
    recording_id: recordingId,
    url: recordingUrl,
    duration_ms: duration,
    format: 'wav',
    channels: 2,
    expires_at: new Date(at + 7 * 86_400_000).toISOString(),
  });
  const quality = success ? random.float() * 0.25 + 0.72 - slowTurns * 0.08 : fate === 'failed' ? random.float() * 0.2 + 0.1 : random.float() * 0.3 + 0.4;
  emit('call.completed', {
    duration_ms: duration,
    ended_reason: endReason,
    success,
    quality_score: cents(Math.min(1, Math.max(0, quality))),
    summary: success
      ? `Customer called ${agent.id.replace('-agent', '')}; resolved in ${exchanges.length} turns.`
      : `Call ${fate.replace(/_/g, ' ')} after ${exchanges.length} turns.`,
    sentiment: success ? random.pick(['positive', 'positive', 'neutral']) : random.pick(['negative', 'neutral']),
    cost_usd: cost,
    recording_url: recordingUrl,
    structured_data: { intent: agent.outcome.type, turns: exchanges.length },
  });
  if (random.chance(0.35)) {
    const rating = success ? random.int(3, 5) : random.int(1, 3);
    emit(
      'customer.feedback.submitted',
      { rating, rating_scale: 5, comment: rating >= 4 ? 'Quick and helpful.' : 'Took too long to get help.', channel: 'sms' },
      at + random.int(30_000, 300_000),
    );
  }
  const range = agent.outcome.revenueUsd;
  const outcome: DemoOutcome | undefined =
    success && random.chance(0.7)
      ? {
          id: `out_${providerCallId}`,
          provider,
          providerCallId,
          agent: agent.id,
          type: agent.outcome.type,
          value: agent.outcome.value,
          revenueUsd: range ? cents(range[0] + random.float() * (range[1] - range[0])) : null,
        }
      : undefined;
  return { provider, providerCallId, agentId: agent.id, fate, envelopes, outcome };
}
