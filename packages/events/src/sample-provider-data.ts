import type { EventData, ProviderEventType } from '@earshot/contracts';

/** `at` is milliseconds after the sample call's start, so samples sort as a real call's events would. */
type Samples = { readonly [T in ProviderEventType]: { readonly at: number; readonly data: EventData<T> } };

/** One inbound support call on Vapi, told through every provider event type. */
export const PROVIDER_SAMPLES: Samples = {
  'call.ringing': { at: 0, data: { telephony_provider: 'twilio', telephony_call_id: 'CA5f1e7d2b9c4a48e0b1d6f3a2c7e9b410' } },
  'call.answered': {
    at: 2_400,
    data: { telephony_call_id: 'CA5f1e7d2b9c4a48e0b1d6f3a2c7e9b410', ring_duration_ms: 2_400, answered_by: 'human' },
  },
  'call.started': {
    at: 2_500,
    data: {
      call_type: 'phone',
      telephony_provider: 'twilio',
      telephony_call_id: 'CA5f1e7d2b9c4a48e0b1d6f3a2c7e9b410',
      llm_model: 'gpt-4o-mini',
      asr_model: 'deepgram nova-3',
      tts_voice: 'elevenlabs rachel',
      language: 'en-US',
    },
  },
  'audio.stream.started': {
    at: 2_550,
    data: { stream_id: 'MZ18ad3ab5a668481ce02b83e7395059f0', codec: 'mulaw', sample_rate: 8_000, channels: 1, direction: 'both' },
  },
  'workflow.state.changed': {
    at: 2_600,
    data: { from_state: null, to_state: 'greeting', node: 'node_greeting', trigger: 'call_started' },
  },
  'transcript.partial': {
    at: 6_100,
    data: { turn_id: 'turn_1', speaker: 'customer', text: 'Hi, I want to check my', start_ms: 4_300, end_ms: 6_000, confidence: 0.71, language: 'en-US' },
  },
  'transcript.final': {
    at: 7_350,
    data: {
      turn_id: 'turn_1',
      speaker: 'customer',
      text: 'Hi, I want to check my last bill, it looks too high.',
      start_ms: 4_300,
      end_ms: 7_200,
      confidence: 0.94,
      language: 'en-US',
    },
  },
  'tool.call.started': {
    at: 7_800,
    data: { tool_call_id: 'call_JkT3qv9', name: 'lookup_invoice', arguments: { customer_id: 'cus_1029', period: '2025-12' }, turn_id: 'turn_1' },
  },
  'tool.call.completed': {
    at: 8_150,
    data: {
      tool_call_id: 'call_JkT3qv9',
      name: 'lookup_invoice',
      arguments: { customer_id: 'cus_1029', period: '2025-12' },
      turn_id: 'turn_1',
      result: { invoice_id: 'in_77', total_usd: 84.2, lines: [{ item: 'roaming', usd: 31.5 }] },
      duration_ms: 350,
    },
  },
  'tool.call.failed': {
    at: 8_200,
    data: {
      tool_call_id: 'call_Wq8Lm2x',
      name: 'apply_credit',
      arguments: { invoice_id: 'in_77', usd: 31.5 },
      turn_id: 'turn_1',
      error: 'billing API timed out after 3000 ms',
      duration_ms: 3_000,
    },
  },
  'agent.response.generated': {
    at: 8_400,
    data: {
      turn_id: 'turn_1',
      latency: { asr_ms: 180, llm_ms: 420, tts_ms: 210, total_ms: 960 },
      text: 'I can see your December bill. The extra 31 dollars 50 is roaming in Canada.',
      model: 'gpt-4o-mini',
      tokens_in: 1_432,
      tokens_out: 38,
      llm_ttft_ms: 390,
      tts_ttfb_ms: 185,
      eou_delay_ms: 150,
      interrupted: false,
      transcription_delay_ms: 170,
      e2e_ms: 960,
      unattributed_ms: 235,
    },
  },
  'provider.error.received': {
    at: 9_000,
    data: {
      component: 'tts',
      provider_error_code: 'elevenlabs-429',
      message: 'voice synthesis rate limited, retried',
      vendor: 'elevenlabs',
      http_status: 429,
      retryable: true,
    },
  },
  'handoff.initiated': {
    at: 31_000,
    data: { handoff_id: 'hof_93c1', target: 'billing-disputes', target_kind: 'human', reason: 'customer disputes roaming charge' },
  },
  'handoff.completed': {
    at: 52_000,
    data: {
      handoff_id: 'hof_93c1',
      target: 'billing-disputes',
      target_kind: 'human',
      reason: 'customer disputes roaming charge',
      wait_ms: 21_000,
      accepted_by: 'rep_maria',
    },
  },
  'call.transferred': {
    at: 52_100,
    data: { to: 'sip:billing-disputes@pbx.acme.example', reason: 'handoff to human queue', transfer_type: 'warm' },
  },
  'audio.stream.stopped': {
    at: 52_200,
    data: {
      stream_id: 'MZ18ad3ab5a668481ce02b83e7395059f0',
      codec: 'mulaw',
      sample_rate: 8_000,
      channels: 1,
      direction: 'both',
      duration_ms: 49_650,
      reason: 'call transferred',
    },
  },
  'call.ended': {
    at: 52_300,
    data: { ended_reason: 'assistant-forwarded-call', disconnection_reason: 'call_transfer', duration_ms: 49_800, cost_usd: 0.0875 },
  },
  'call.failed': {
    at: 52_300,
    data: {
      error_code: 'pipeline-error-openai-llm-failed',
      message: 'language model returned 503 three times',
      stage: 'in_call',
      sip_status_code: null,
      retryable: true,
    },
  },
  'recording.available': {
    at: 55_000,
    data: {
      recording_id: 'RE1c7a2b3d4e5f60718293a4b5c6d7e8f9',
      url: 'https://storage.vapi.example/recordings/3f6b0c5e.wav',
      duration_ms: 49_800,
      format: 'wav',
      channels: 2,
      expires_at: '2026-01-15T09:30:55.000Z',
    },
  },
  'call.completed': {
    at: 58_000,
    data: {
      duration_ms: 49_800,
      ended_reason: 'assistant-forwarded-call',
      success: true,
      quality_score: 0.82,
      summary: 'Customer queried a high December bill; agent explained roaming and handed off to billing disputes.',
      sentiment: 'neutral',
      cost_usd: 0.0875,
      recording_url: 'https://storage.vapi.example/recordings/3f6b0c5e.wav',
      structured_data: { intent: 'billing_dispute', resolved: false },
    },
  },
  'customer.feedback.submitted': {
    at: 300_000,
    data: { rating: 4, rating_scale: 5, comment: 'Quick, but I still had to wait for a person.', channel: 'sms' },
  },
};
