import { ApiError } from '@earshot/contracts';
import type { DeliveryNote, Intake } from '@earshot/intake';
import { eventsOfSpans, spansOf, type ExportTraceServiceRequest, type Framework, type SpanEvents } from '@earshot/otlp';

export interface SpansAccepted {
  notes: DeliveryNote[];
  /** Spans with an event the intake dead-lettered: what the partial-success answer counts as rejected. */
  rejected: number;
  message: string | null;
}

const NOTHING_READ: DeliveryNote = {
  outcome: 'accepted',
  eventType: null,
  idempotencyKey: null,
  eventId: null,
  reason: 'no span of LiveKit Agents or Pipecat that Earshot reads',
};

/**
 * The spans' events through the intake (validation, idempotency by trace,
 * span and role, Avro, the events topic), one append per framework, since
 * the framework is the events' provider and so part of their calls' ids.
 */
export async function acceptSpans(intake: Intake, who: { tenantId: string; receivedAt: Date }, request: ExportTraceServiceRequest): Promise<SpansAccepted> {
  const mapped = eventsOfSpans(spansOf(request));
  if (mapped.length === 0) return { notes: [NOTHING_READ], rejected: 0, message: null };
  const byFramework = new Map<Framework, SpanEvents[]>();
  for (const item of mapped) byFramework.set(item.framework, [...(byFramework.get(item.framework) ?? []), item]);

  const notes: DeliveryNote[] = [];
  const rejected = new Set<string>();
  const reasons: string[] = [];
  for (const [framework, items] of byFramework) {
    const inputs = items.flatMap(({ span, envelopes }) =>
      envelopes.map((value) => ({ value, raw: Buffer.from(JSON.stringify(value)), label: `span ${span.spanId} (${span.name})`, spanId: span.spanId })),
    );
    const outcomes = await intake.accept({ tenantId: who.tenantId, provider: framework, receivedAt: who.receivedAt }, inputs);
    outcomes.forEach((outcome, i) => {
      notes.push(outcome.note);
      if (outcome.result.ok) return;
      // Another copy of the same span is still being taken in: nothing is lost by the exporter trying again.
      if (outcome.result.code === 'IDEMPOTENCY_CONFLICT') throw new ApiError('UNAVAILABLE', `${outcome.result.error}; retry the export`);
      rejected.add(inputs[i]?.spanId ?? '');
      reasons.push(outcome.result.error);
    });
  }
  const message =
    reasons.length === 0 ? null : `${rejected.size} spans rejected, kept as dead letters: ${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? '; …' : ''}`;
  return { notes, rejected: rejected.size, message };
}
