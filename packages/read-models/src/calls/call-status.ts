import type { CallResource } from '@earshot/contracts';
import type { CallFacts } from './call-facts';

/** A call's status is served as stored: the API's statuses are the read model's. */
export type CallStatus = CallResource['status'];

/** End reasons (Vapi, Retell, Twilio) that mean nobody was reached. */
const UNREACHED_END_REASONS: ReadonlySet<string> = new Set([
  'customer-did-not-answer',
  'customer-busy',
  'voicemail',
  'no-answer',
  'busy',
  'canceled',
  'dial_no_answer',
  'dial_busy',
  'voicemail_reached',
]);

/**
 * The status is a function of the set of facts, never of their order, with
 * terminal statuses in a fixed precedence (README "Call status"):
 *   failed     a call.failed was seen;
 *   escalated  else a call.transferred, or a handoff.completed to a human;
 *   abandoned  else the call ended (call.ended or call.completed) and nobody was
 *              served: never answered and no final transcript or agent turn,
 *              or it ended for a no-answer, busy or voicemail reason;
 *   completed  else the call ended;
 *   abandoned  else Earshot declared it abandoned (call.abandoned: its
 *              provider fell silent) and nothing happened after the silence
 *              began; an event that happened later revives it;
 *   in_progress otherwise.
 */
export function callStatus(facts: CallFacts): CallStatus {
  if (facts.failedAt !== null) return 'failed';
  if (facts.transferredAt !== null || facts.handedToHuman) return 'escalated';
  const ended = facts.endedAt !== null || facts.completedAt !== null;
  if (!ended) return abandonedBySilence(facts) ? 'abandoned' : 'in_progress';
  const reason = endReason(facts);
  const unreached = reason !== null && UNREACHED_END_REASONS.has(reason);
  if (unreached || (facts.answeredAt === null && !facts.conversed)) return 'abandoned';
  return 'completed';
}

/** The provider's end-of-call report wins over the hang-up event, which wins over a failure code. */
export function endReason(facts: CallFacts): string | null {
  return facts.report?.value.endedReason ?? facts.end?.value.endedReason ?? facts.failure?.value.errorCode ?? null;
}

/** Declared abandoned, and no event happened after the silence the declaration names. */
export function abandonedBySilence(facts: CallFacts): boolean {
  const since = facts.abandonedSilentSince;
  return since !== null && facts.lastEventAt !== null && facts.lastEventAt <= since;
}
