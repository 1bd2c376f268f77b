/** Metric names, as `GET /metrics?name=` takes them. Values are milliseconds unless counted. */
export const METRICS = {
  turnLatencyTotal: 'turn.latency.total_ms',
  turnLatencyAsr: 'turn.latency.asr_ms',
  turnLatencyLlm: 'turn.latency.llm_ms',
  turnLatencyTts: 'turn.latency.tts_ms',
  turns: 'turns',
  interruptions: 'turns.interrupted',
  toolCallDuration: 'tool_call.duration_ms',
  toolCallFailures: 'tool_calls.failed',
  callsStarted: 'calls.started',
  callsEnded: 'calls.ended',
  callsFailed: 'calls.failed',
  callsTransferred: 'calls.transferred',
  providerErrors: 'provider.errors',
  feedbackRating: 'feedback.rating',
} as const;
