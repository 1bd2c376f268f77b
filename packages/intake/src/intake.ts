import { hash, randomUUID } from 'node:crypto';
import {
  AcceptedSchema,
  ApiError,
  type Accepted,
  fieldIssues,
  IncomingEventSchema,
  jsonShapeIssues,
  receiveEvent,
  storableText,
  type DeadLetter,
  type DeliveryOutcome,
  type FieldIssue,
  type IncomingEvent,
} from '@earshot/contracts';
import { eventId, sealDeadLetter, sealingKeys, type DataKey, type EventSealing } from '@earshot/events';
import { refusedValue } from '@earshot/db';
import { RefusedKeyError, type IdempotencyStore } from '@earshot/idempotency';
import type { EventLog, OutgoingRecord } from '@earshot/log';
import { deadLettersTopic, eventsTopic } from '@earshot/topics';
import { appendWithin } from '@earshot/server';
import { fallbackLogger, type Logger, type Metrics } from '@earshot/telemetry';

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
  /** The bytes this envelope came in: the whole body, or its element of a batch body (see batchItemBytes in @earshot/server). */
  raw: Buffer;
  /** Says where the envelope was, for reasons: `item 3 of the batch`. */
  label?: string;
  /** Set when a dead letter is re-submitted: if it fails again, it stays that dead letter (same id) with the new reason. */
  deadLetterId?: string;
}

export const ACCEPTED_STATUS = 202;

/** How much of a sender's text a dead letter or a delivery record keeps in one field. */
const NOTED_CHARS = 500;

/** A dead letter to write, with what the sender sent as parsed (undefined when not JSON): it names the call whose key seals the body. */
interface Refused {
  deadLetter: DeadLetter;
  sent: unknown;
}

interface Candidate {
  index: number;
  event: IncomingEvent;
  id: string;
  requestHash: Buffer;
  raw: Buffer;
  deadLetterId: string | undefined;
}

export interface IntakeOptions {
  log: EventLog;
  idempotency: IdempotencyStore;
  appendTimeoutMs: number;
  /** How long a copy waits for the first request with its key to finish. */
  duplicateWaitMs: number;
  /**
   * Seals each event's personal fields with its call's data key, and each dead letter's body with the key of the call
   * its envelope names (its tenant's when it names none), before append; both are written in the clear without it.
   */
  sealing?: EventSealing;
  /** Where failures no sender hears of are reported (keys not released, answers not stored). */
  logger?: Logger;
  /** Counts the envelopes by outcome, and the dead letters written. */
  metrics?: Metrics;
}

/**
 * Validates envelopes, appends the new ones to the events topic and the
 * invalid ones to the dead-letter topic, in one append, and answers each
 * one in order. A key already answered gets that answer back, marked
 * duplicate, and appends nothing.
 */
export class Intake {
  private readonly logger: Logger;

  constructor(private readonly options: IntakeOptions) {
    this.logger = options.logger ?? fallbackLogger();
  }

  async accept(sender: Sender, inputs: readonly EnvelopeInput[]): Promise<EnvelopeOutcome[]> {
    const outcomes = new Array<EnvelopeOutcome>(inputs.length);
    const deadLetters: Refused[] = [];
    const candidates: Candidate[] = [];
    const refuse = (index: number, value: unknown, raw: Buffer, fields: FieldIssue[], deadLetterId?: string) => {
      const reason = `${inputs[index]?.label ?? 'envelope'} is invalid: ${fields.map((f) => f.path).join(', ')}`;
      const dead = this.deadLetter(sender, raw, reason, fields, value, deadLetterId);
      deadLetters.push({ deadLetter: dead.deadLetter, sent: value });
      outcomes[index] = dead.outcome;
    };
    inputs.forEach((input, index) => {
      // Bounds first, without recursion: the contract's own parse recurses, and must never meet a 5,000-deep value.
      const shape = jsonShapeIssues(input.value);
      if (shape.length > 0) return refuse(index, input.value, input.raw, shape, input.deadLetterId);
      const parsed = IncomingEventSchema.safeParse(input.value);
      if (!parsed.success) return refuse(index, input.value, input.raw, fieldIssues(parsed.error), input.deadLetterId);
      const event = parsed.data;
      candidates.push({
        index,
        event,
        id: eventId(sender.tenantId, event.idempotency_key),
        requestHash: hash('sha256', input.raw, 'buffer'),
        raw: input.raw,
        deadLetterId: input.deadLetterId,
      });
    });

    const claims = await Promise.allSettled(
      this.options.idempotency.claimEach(candidates.map((c) => ({ tenantId: sender.tenantId, key: c.event.idempotency_key, requestHash: c.requestHash }))),
    );
    const claimed: Candidate[] = [];
    const waiting: Candidate[] = [];
    let outage: unknown;
    claims.forEach((settled, i) => {
      const candidate = candidates[i] as Candidate;
      if (settled.status === 'rejected') {
        // A key the store refuses is this envelope's fault alone; a store that cannot answer is nobody's, and fails the request.
        if (settled.reason instanceof RefusedKeyError || refusedValue(settled.reason))
          refuse(candidate.index, candidate.event, candidate.raw, [{ path: 'idempotency_key', message: String(settled.reason) }], candidate.deadLetterId);
        else outage ??= settled.reason;
        return;
      }
      const claim = settled.value;
      if (claim.state === 'claimed') claimed.push(candidate);
      else if (claim.state === 'in_flight') waiting.push(candidate);
      else outcomes[candidate.index] = duplicateOf(candidate, claim.status, claim.response);
    });
    if (outage !== undefined) {
      await this.release(sender, claimed);
      unavailable('the idempotency store')(outage);
    }

    await this.append(sender, claimed, deadLetters, outcomes);
    await Promise.all(waiting.map((candidate) => this.settle(sender, candidate, outcomes)));
    return this.counted(outcomes);
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
    const records = await this.deadLetterRecords(sender, [{ deadLetter: dead.deadLetter, sent: undefined }]).catch(unavailable('the data key store'));
    await appendWithin(this.options.log, records, this.options.appendTimeoutMs);
    this.counted([dead.outcome]);
    return dead.outcome;
  }

  /** Answers are counted once the log has taken what they say (an append that failed answered nothing). */
  private counted<T extends EnvelopeOutcome>(outcomes: T[]): T[] {
    const { metrics } = this.options;
    for (const { note } of outcomes) {
      metrics?.ingestEnvelopes.inc({ outcome: note.outcome });
      if (note.outcome === 'dead_lettered') metrics?.deadLetters.inc({ source: 'gateway' });
    }
    return outcomes;
  }

  private async append(sender: Sender, claimed: readonly Candidate[], deadLetters: readonly Refused[], outcomes: EnvelopeOutcome[]): Promise<void> {
    const events: { candidate: Candidate; record: OutgoingRecord }[] = [];
    const unencodable: Refused[] = [];
    const keys = claimed.map((c) => ({ tenantId: sender.tenantId, key: c.event.idempotency_key }));
    const { sealing } = this.options;
    const sealWith =
      sealing && claimed.length > 0
        ? await sealingKeys(
            sealing,
            sender,
            claimed.map((c) => c.event),
          ).catch(async (error: unknown) => {
            await this.release(sender, claimed);
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
        unencodable.push({ deadLetter: dead.deadLetter, sent: candidate.event });
        outcomes[candidate.index] = dead.outcome;
      }
    }
    const deadRecords = await this.deadLetterRecords(sender, [...deadLetters, ...unencodable]).catch(async (error: unknown) => {
      await this.release(sender, claimed);
      return unavailable('the data key store')(error);
    });
    const records = [...deadRecords, ...events.map((e) => e.record)];
    if (records.length === 0) return;
    // The response stored is JSON null: the answer is the event's id, which a copy derives from its key again (duplicateOf).
    // Stored, it cost every key a JSON text made and a jsonb parsed and written (~5% of the CPU an event, gateway and Postgres).
    const answers = events.map(({ candidate }) => ({
      tenantId: sender.tenantId,
      key: candidate.event.idempotency_key,
      requestHash: candidate.requestHash,
      status: ACCEPTED_STATUS,
      response: null,
    }));
    let late: Promise<unknown> | undefined;
    try {
      await appendWithin(this.options.log, records, this.options.appendTimeoutMs, (append) => {
        late = append;
      });
    } catch (error) {
      // Answered 503, yet the producer may still store the events (a broker back from a restart appended 14 of 60
      // twice): the keys stay claimed until it settles, then hold the answer, or are given up if nothing was stored.
      if (late) void late.then(() => this.options.idempotency.complete(answers)).catch(() => this.release(sender, claimed));
      else await this.release(sender, claimed);
      throw error;
    }
    for (const { candidate } of events) outcomes[candidate.index] = acceptedOutcome(candidate);
    // Not awaited: the events are stored, so the sender need not wait for the answer to be. A copy arriving
    // meanwhile waits for it; if it is never written, the claim's lease runs out and a retry appends the same event (same id) again.
    void this.options.idempotency
      .complete(answers)
      .catch((error: unknown) => this.logger.error({ err: error }, 'storing idempotent answers failed; a retry after the lease may append again'));
    // Dead-lettered after claiming: the key is given up so a corrected retry can be accepted.
    const appended = new Set(events.map((e) => e.candidate.event.idempotency_key));
    const given = keys.filter((k) => !appended.has(k.key));
    if (given.length > 0) await this.options.idempotency.release(given).catch(() => undefined);
  }

  /** Gives up claimed keys whose work failed, so a retry can claim them afresh. */
  private async release(sender: Sender, claimed: readonly Candidate[]): Promise<void> {
    await this.options.idempotency
      .release(claimed.map((c) => ({ tenantId: sender.tenantId, key: c.event.idempotency_key })))
      .catch((error: unknown) => this.logger.error({ err: error }, 'releasing idempotency keys failed; they free themselves when their lease ends'));
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

  /**
   * The dead letters' records, each body sealed when sealing is on with the key its envelope's events would be
   * (sealingKeys): the call's it names, so erasing the call reaches what was refused about it too; else the tenant's.
   */
  private async deadLetterRecords(sender: Sender, refused: readonly Refused[]): Promise<OutgoingRecord[]> {
    const { sealing } = this.options;
    if (!sealing) return refused.map(({ deadLetter }) => deadLettersTopic.record(deadLetter));
    const keys =
      refused.length > 0
        ? await sealingKeys(
            sealing,
            sender,
            refused.map((r) => r.sent),
          )
        : [];
    return refused.map(({ deadLetter }, i) => {
      const key = keys[i];
      // Never in the clear when sealing is on: a key the store did not give fails the request, which the sender retries.
      if (!key) throw new Error(`dead letter ${deadLetter.id}: the data key store gave no key to seal it with`);
      return deadLettersTopic.record(sealDeadLetter(deadLetter, key));
    });
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
  ): { deadLetter: DeadLetter; outcome: EnvelopeOutcome & { result: DeadLettered } } {
    const readable = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    // What the sender wrote is kept as storable text: the dead letter and the delivery record must be written whatever it holds.
    const eventType = typeof readable.type === 'string' ? storableText(readable.type, NOTED_CHARS) : null;
    const idempotencyKey = typeof readable.idempotency_key === 'string' ? storableText(readable.idempotency_key, NOTED_CHARS) : null;
    fields = fields.map((field) => ({ path: storableText(field.path, NOTED_CHARS), message: storableText(field.message, NOTED_CHARS) }));
    reason = storableText(reason, 4 * NOTED_CHARS);
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
      sealed_with: null,
    };
    return {
      deadLetter,
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
    throw new ApiError('UNAVAILABLE', `${what} is unavailable; nothing was accepted, retry later`, { cause: error });
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

/**
 * The first answer again, marked as a duplicate: same status, same id. The id is derived from the key, as the first's
 * was; a key answered while answers still stored their response holds it there.
 */
function duplicateOf(candidate: Candidate, status: number, response: unknown): EnvelopeOutcome {
  const first = AcceptedSchema.safeParse(response);
  const id = first.success ? first.data.id : candidate.id;
  return { status, result: accepted(id, true), note: note(candidate, 'duplicate') };
}
