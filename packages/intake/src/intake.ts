import { createHash, randomUUID } from 'node:crypto';
import {
  AcceptedSchema,
  ApiError,
  type Accepted,
  fieldIssues,
  IncomingEventSchema,
  receiveEvent,
  type DeadLetter,
  type DeliveryOutcome,
  type FieldIssue,
  type IncomingEvent,
} from '@earshot/contracts';
import { eventId, type DataKey } from '@earshot/events';
import type { IdempotencyStore } from '@earshot/idempotency';
import type { EventLog, OutgoingRecord } from '@earshot/log';
import { deadLettersTopic, eventsTopic } from '@earshot/topics';
import { appendWithin } from '@earshot/server';
import { sealingKeys, type EventSealing } from './sealing';

/** The answer for one accepted envelope, as stored for its idempotency key. */

export type DeadLettered = { ok: false; code: 'VALIDATION_ERROR'; error: string; fields: FieldIssue[]; deadLetterId: string };
export type EnvelopeResult = Accepted | DeadLettered | { ok: false; code: 'IDEMPOTENCY_CONFLICT'; error: string };

/** What the delivery audit log records about one envelope. */
export interface DeliveryNote {
  outcome: DeliveryOutcome;
  eventType: string | null;
  idempotencyKey: string | null;
  eventId: string | null;
  reason: string | null;
}

export interface EnvelopeOutcome {
  status: number;
  result: EnvelopeResult;
  note: DeliveryNote;
}

export interface Sender {
  tenantId: string;
  provider: string;
  receivedAt: Date;
}

export interface EnvelopeInput {
  value: unknown;
  /** The bytes this envelope came in: the whole body, or the envelope re-serialized when it was one of a batch. */
  raw: Buffer;
  /** Says where the envelope was, for reasons: `item 3 of the batch`. */
  label?: string;
  /** Set when a dead letter is re-submitted: if it fails again, it stays that dead letter (same id) with the new reason. */
  deadLetterId?: string;
}

export const ACCEPTED_STATUS = 202;

interface Candidate {
  index: number;
  event: IncomingEvent;
  id: string;
  requestHash: Buffer;
}

export interface IntakeOptions {
  log: EventLog;
  idempotency: IdempotencyStore;
  appendTimeoutMs: number;
  /** How long a copy waits for the first request with its key to finish. */
  duplicateWaitMs: number;
  /** Seals each event's personal fields with its call's data key before append; events are written in the clear without it. */
  sealing?: EventSealing;
}

/**
 * Validates envelopes, appends the new ones to the events topic and the
 * invalid ones to the dead-letter topic, in one append, and answers each
 * one in order. A key already answered gets that answer back, marked
 * duplicate, and appends nothing.
 */
export class Intake {
  constructor(private readonly options: IntakeOptions) {}

  async accept(sender: Sender, inputs: readonly EnvelopeInput[]): Promise<EnvelopeOutcome[]> {
    const outcomes = new Array<EnvelopeOutcome>(inputs.length);
    const deadLetters: OutgoingRecord[] = [];
    const candidates: Candidate[] = [];
    inputs.forEach((input, index) => {
      const parsed = IncomingEventSchema.safeParse(input.value);
      if (!parsed.success) {
        const fields = fieldIssues(parsed.error);
        const reason = `${input.label ?? 'envelope'} is invalid: ${fields.map((f) => f.path).join(', ')}`;
        const dead = this.deadLetter(sender, input.raw, reason, fields, input.value, input.deadLetterId);
        deadLetters.push(dead.record);
        outcomes[index] = dead.outcome;
        return;
      }
      const event = parsed.data;
      candidates.push({ index, event, id: eventId(sender.tenantId, event.idempotency_key), requestHash: createHash('sha256').update(input.raw).digest() });
    });

    const claims = await this.options.idempotency
      .claim(candidates.map((c) => ({ tenantId: sender.tenantId, key: c.event.idempotency_key, requestHash: c.requestHash })))
      .catch(unavailable('the idempotency store'));
    const claimed: Candidate[] = [];
    const waiting: Candidate[] = [];
    claims.forEach((claim, i) => {
      const candidate = candidates[i] as Candidate;
      if (claim.state === 'claimed') claimed.push(candidate);
      else if (claim.state === 'in_flight') waiting.push(candidate);
      else outcomes[candidate.index] = duplicateOf(candidate, claim.status, claim.response);
    });

    await this.append(sender, claimed, deadLetters, outcomes);
    await Promise.all(waiting.map((candidate) => this.settle(sender, candidate, outcomes)));
    return outcomes;
  }

  /** A body that holds no envelope at all (not JSON, not an object, too many): dead-lettered whole. */
  async rejectBody(
    sender: Sender,
    raw: Buffer,
    reason: string,
    fields: FieldIssue[],
    deadLetterId?: string,
  ): Promise<EnvelopeOutcome & { result: DeadLettered }> {
    const dead = this.deadLetter(sender, raw, reason, fields, undefined, deadLetterId);
    await appendWithin(this.options.log, [dead.record], this.options.appendTimeoutMs);
    return dead.outcome;
  }

  private async append(sender: Sender, claimed: readonly Candidate[], deadLetters: readonly OutgoingRecord[], outcomes: EnvelopeOutcome[]): Promise<void> {
    const events: { candidate: Candidate; record: OutgoingRecord }[] = [];
    const unencodable: OutgoingRecord[] = [];
    const keys = claimed.map((c) => ({ tenantId: sender.tenantId, key: c.event.idempotency_key }));
    const { sealing } = this.options;
    const sealWith =
      sealing && claimed.length > 0
        ? await sealingKeys(
            sealing,
            sender,
            claimed.map((c) => c.event),
          ).catch(async (error: unknown) => {
            await this.options.idempotency.release(keys).catch(() => undefined);
            return unavailable('the data key store')(error);
          })
        : [];
    for (const [i, candidate] of claimed.entries()) {
      try {
        events.push({ candidate, record: this.eventRecord(sender, candidate, sealWith[i]) });
      } catch (error) {
        // Valid by the contract yet not writable by its schema: kept as a dead letter rather than lost.
        const reason = `envelope could not be encoded: ${error instanceof Error ? error.message : String(error)}`;
        const dead = this.deadLetter(sender, Buffer.from(JSON.stringify(candidate.event)), reason, [], candidate.event);
        unencodable.push(dead.record);
        outcomes[candidate.index] = dead.outcome;
      }
    }
    const records = [...deadLetters, ...unencodable, ...events.map((e) => e.record)];
    if (records.length === 0) return;
    try {
      await appendWithin(this.options.log, records, this.options.appendTimeoutMs);
    } catch (error) {
      await this.options.idempotency
        .release(keys)
        .catch((releaseError: unknown) =>
          console.error(`[gateway] releasing idempotency keys failed (they free themselves when their lease ends): ${String(releaseError)}`),
        );
      throw error;
    }
    for (const { candidate } of events) outcomes[candidate.index] = acceptedOutcome(candidate);
    const answers = events.map(({ candidate }) => ({
      tenantId: sender.tenantId,
      key: candidate.event.idempotency_key,
      status: ACCEPTED_STATUS,
      response: accepted(candidate.id, false),
    }));
    // Not awaited: the events are stored, so the sender need not wait for the answer to be. A copy arriving
    // meanwhile waits for it; if it is never written, the claim's lease runs out and a retry appends the same event (same id) again.
    void this.options.idempotency
      .complete(answers)
      .catch((error: unknown) => console.error(`[gateway] storing idempotent answers failed; a retry after the lease may append again: ${String(error)}`));
    // Dead-lettered after claiming: the key is given up so a corrected retry can be accepted.
    const appended = new Set(events.map((e) => e.candidate.event.idempotency_key));
    const given = keys.filter((k) => !appended.has(k.key));
    if (given.length > 0) await this.options.idempotency.release(given).catch(() => undefined);
  }

  private async settle(sender: Sender, candidate: Candidate, outcomes: EnvelopeOutcome[]): Promise<void> {
    const claim = await this.options.idempotency
      .settle({ tenantId: sender.tenantId, key: candidate.event.idempotency_key, requestHash: candidate.requestHash }, this.options.duplicateWaitMs)
      .catch(unavailable('the idempotency store'));
    if (claim.state === 'done') outcomes[candidate.index] = duplicateOf(candidate, claim.status, claim.response);
    else if (claim.state === 'claimed') await this.append(sender, [candidate], [], outcomes);
    else {
      const error = `an envelope with idempotency_key ${candidate.event.idempotency_key} is still being processed; retry later`;
      outcomes[candidate.index] = { status: 409, result: { ok: false, code: 'IDEMPOTENCY_CONFLICT', error }, note: note(candidate, 'rejected', error) };
    }
  }

  private eventRecord(sender: Sender, candidate: Candidate, sealWith?: DataKey): OutgoingRecord {
    const stored = receiveEvent(candidate.event, { tenant: sender.tenantId, provider: sender.provider, received_at: sender.receivedAt.toISOString() });
    return eventsTopic.record(stored, { recordId: candidate.id, eventId: candidate.id, sealWith });
  }

  private deadLetter(
    sender: Sender,
    raw: Buffer,
    reason: string,
    fields: FieldIssue[],
    value: unknown,
    id: string = randomUUID(),
  ): { record: OutgoingRecord; outcome: EnvelopeOutcome & { result: DeadLettered } } {
    const readable = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    const eventType = typeof readable.type === 'string' ? readable.type : null;
    const idempotencyKey = typeof readable.idempotency_key === 'string' ? readable.idempotency_key : null;
    const deadLetter: DeadLetter = {
      id,
      tenant: sender.tenantId,
      provider: sender.provider,
      received_at: sender.receivedAt.toISOString(),
      source: 'gateway',
      reason,
      fields,
      body: new Uint8Array(raw),
      event_type: eventType,
      idempotency_key: idempotencyKey,
      topic: null,
      partition: null,
      offset: null,
    };
    return {
      record: deadLettersTopic.record(deadLetter),
      outcome: {
        status: 400,
        result: { ok: false, code: 'VALIDATION_ERROR', error: reason, fields, deadLetterId: deadLetter.id },
        note: { outcome: 'dead_lettered', eventType, idempotencyKey, eventId: null, reason },
      },
    };
  }
}

/** A store we depend on failed: nothing was accepted, so the sender may retry. */
function unavailable(what: string) {
  return (error: unknown): never => {
    console.error(`[gateway] ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    throw new ApiError('UNAVAILABLE', `${what} is unavailable; nothing was accepted, retry later`);
  };
}

function accepted(id: string, duplicate: boolean): Accepted {
  return { ok: true, id, duplicate };
}

function note(candidate: Candidate, outcome: DeliveryOutcome, reason: string | null = null): DeliveryNote {
  return { outcome, eventType: candidate.event.type, idempotencyKey: candidate.event.idempotency_key, eventId: candidate.id, reason };
}

function acceptedOutcome(candidate: Candidate): EnvelopeOutcome {
  return { status: ACCEPTED_STATUS, result: accepted(candidate.id, false), note: note(candidate, 'accepted') };
}

/** The first answer again, marked as a duplicate: same status, same id. */
function duplicateOf(candidate: Candidate, status: number, response: unknown): EnvelopeOutcome {
  const first = AcceptedSchema.safeParse(response);
  const id = first.success ? first.data.id : candidate.id;
  return { status, result: accepted(id, true), note: note(candidate, 'duplicate') };
}
