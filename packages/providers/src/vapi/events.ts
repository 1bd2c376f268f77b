import { fieldIssues } from '@earshot/contracts';
import type { Mapping, MappingContext } from '../delivery';
import { CallEvents, jsonOrText, text, timeOf, type CallInput } from '../envelopes';
import { VapiWebhookSchema, type VapiServerMessage } from './payload';
import { addReport, utteranceKey } from './report';

const MAPPED: ReadonlySet<string> = new Set(['status-update', 'end-of-call-report', 'transcript', 'tool-calls', 'user-interrupted', 'transfer-update']);

function callOf(message: VapiServerMessage, call: NonNullable<VapiServerMessage['call']>, context: MappingContext): CallInput {
  const direction = call.type === 'inboundPhoneCall' ? 'inbound' : call.type === 'outboundPhoneCall' ? 'outbound' : null;
  const customer = message.customer?.number ?? call.customer?.number ?? null;
  const ours = message.phoneNumber?.number ?? null;
  return {
    provider_call_id: call.id,
    agent_id: call.assistantId ?? call.squadId ?? call.workflowId ?? context.connection.name,
    agent_version: message.assistantVersion ?? null,
    direction,
    from_number: direction === 'outbound' ? ours : customer,
    to_number: direction === 'outbound' ? customer : ours,
    workflow_id: call.workflowId ?? null,
    customer_id: call.customerId ?? message.customer?.externalId ?? call.customer?.externalId ?? null,
  };
}

/** status-update: the call's lifecycle; `forwarding` is a transfer to the destination. */
function addStatus(events: CallEvents, message: VapiServerMessage, at: Date): boolean {
  const call = message.call;
  const telephony = { telephony_provider: call?.phoneCallProvider ?? null, telephony_call_id: call?.phoneCallProviderId ?? null };
  // Whichever status comes first starts the call; the same key makes the later ones duplicates.
  const start = () => events.add('call.started', 'call.started', at, { call_type: call?.type ?? null, ...telephony });
  switch (message.status) {
    case 'scheduled':
    case 'queued':
      start();
      return true;
    case 'ringing':
      start().add('call.ringing', 'call.ringing', at, telephony);
      return true;
    case 'in-progress':
      start().add('call.answered', 'call.answered', at, { telephony_call_id: telephony.telephony_call_id });
      return true;
    case 'forwarding': {
      const to = text(message.destination?.number) ?? text(message.destination?.sipUri) ?? 'unknown';
      events.add('handoff.initiated', `forwarding:${to}`, at, {
        handoff_id: `forward:${to}`,
        target: to,
        target_kind: 'human',
        reason: message.destination?.description ?? null,
      });
      events.add('call.transferred', 'call.transferred', at, { to, reason: 'forwarding', transfer_type: message.destination?.type ?? null });
      return true;
    }
    case 'ended':
      events.add('call.ended', 'call.ended', at, { ended_reason: message.endedReason ?? null });
      return true;
    default:
      return false;
  }
}

/**
 * transcript: partial or final words of one side. Its turn id is the
 * utterance's place in the live artifact's messages, the place the
 * end-of-call report gives it too, so the final transcript replaces the
 * partials and the report repeats it under the same key.
 */
function addTranscript(events: CallEvents, message: VapiServerMessage, at: Date): void {
  const words = message.transcript ?? '';
  const role = message.role ?? 'user';
  const turnId = message.artifact?.messages ? `m${message.artifact.messages.length}` : `t${message.timestamp ?? at.getTime()}`;
  const final = message.transcriptType !== 'partial';
  const key = utteranceKey(turnId, role, words);
  events.add(final ? 'transcript.final' : 'transcript.partial', final ? key : `${key}:partial`, at, {
    turn_id: turnId,
    speaker: role === 'user' ? 'customer' : 'agent',
    text: words,
  });
}

function addToolCalls(events: CallEvents, message: VapiServerMessage, at: Date): void {
  for (const call of message.toolCallList ?? []) {
    events.add(
      'tool.call.started',
      `tool:${call.id}:started`,
      at,
      { tool_call_id: call.id, name: call.function.name, arguments: jsonOrText(call.function.arguments) },
      call,
    );
  }
}

/** transfer-update: to another assistant (a hand-off between agents) or to a number (a person: the call is escalated). */
function addTransfer(events: CallEvents, message: VapiServerMessage, at: Date): void {
  const destination = message.destination;
  if (destination?.type === 'assistant') {
    const target = text(message.toAssistant?.name) ?? text(destination.assistantName) ?? 'assistant';
    events.add('handoff.completed', `handoff:${target}:${at.getTime()}`, at, {
      handoff_id: `handoff:${target}:${at.getTime()}`,
      target,
      target_kind: 'agent',
      reason: null,
    });
    return;
  }
  const to = text(destination?.number) ?? text(destination?.sipUri) ?? 'unknown';
  events.add('handoff.completed', `transfer:${to}`, at, { handoff_id: `forward:${to}`, target: to, target_kind: 'human', reason: null });
  events.add('call.transferred', 'call.transferred', at, { to, reason: 'transfer-update', transfer_type: destination?.type ?? null });
}

/** Vapi's server messages (`{ message }`) as events about the call. */
export function mapVapi(payload: unknown, context: MappingContext): Mapping {
  const parsed = VapiWebhookSchema.safeParse(payload);
  if (!parsed.success) {
    const fields = fieldIssues(parsed.error);
    return { kind: 'invalid', eventName: null, reason: `the Vapi server message does not fit Vapi's schema: ${fields.map((f) => f.path).join(', ')}`, fields };
  }
  const message = parsed.data.message;
  const type = message.type ?? (message.toolCallList ? 'tool-calls' : null);
  if (!type || !MAPPED.has(type))
    return { kind: 'unknown', eventName: type, reason: `Vapi message ${type ?? '(without a type)'} is not one Earshot maps to events` };
  if (!message.call) {
    return { kind: 'invalid', eventName: type, reason: `Vapi ${type} names no call`, fields: [{ path: 'message.call', message: 'required' }] };
  }
  const at = timeOf(message.timestamp, 'ms', context.receivedAt);
  const events = new CallEvents({ provider: 'vapi', connectionId: context.connection.id, event: type, payload }, callOf(message, message.call, context));
  switch (type) {
    case 'status-update':
      if (!addStatus(events, message, at))
        return { kind: 'unknown', eventName: `${type}:${message.status}`, reason: `Vapi status ${message.status} is not mapped` };
      break;
    case 'end-of-call-report':
      addReport(events, message, context);
      break;
    case 'transcript':
      addTranscript(events, message, at);
      break;
    case 'tool-calls':
      addToolCalls(events, message, at);
      break;
    case 'user-interrupted':
      events.add('workflow.state.changed', `interrupted:${message.turnId ?? at.getTime()}`, at, {
        from_state: 'assistant_speaking',
        to_state: 'user_interrupted',
        node: message.turnId ?? null,
        trigger: 'user',
      });
      break;
    default:
      addTransfer(events, message, at);
  }
  return { kind: 'events', eventName: type, envelopes: events.envelopes };
}
