import { ApiError } from '@earshot/contracts';
import { platformQuery, sql, type ConnectionPool } from '@earshot/db';
import type { EnvelopeInput, EnvelopeOutcome, EnvelopeResult, Intake, Sender } from '@earshot/intake';

export interface HeldDeadLetter {
  id: string;
  tenant_id: string | null;
  provider: string | null;
  source: string;
  /** Opened when it was sealed; undefined when its key was destroyed (its call or its tenant erased), or it is unreadable. */
  body: Buffer | undefined;
  /** Sealed, with its key held, yet it cannot be opened: its bytes were altered, or it names another key than `sealed_with`. */
  unreadable: boolean;
}

export interface ReplayAnswer {
  ok: true;
  deadLetterId: string;
  status: 'replayed';
  /** One per envelope re-submitted, as the ingest endpoint answers them. */
  results: EnvelopeResult[];
}

const PROVIDER_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Re-submits a dead letter's bytes through the gateway's intake, as its
 * tenant and provider, now: the same validation, idempotency and appends as
 * the ingest endpoint. A body that is one envelope keeps its dead-letter id
 * if it fails again (the store then shows the new reason); a body that was a
 * whole batch re-submits each envelope, and those that fail become dead
 * letters of their own.
 */
export async function replayDeadLetter(db: ConnectionPool, intake: Intake, letter: HeldDeadLetter, now: Date): Promise<ReplayAnswer> {
  if (letter.source !== 'gateway') {
    throw new ApiError(
      'VALIDATION_ERROR',
      `dead letter ${letter.id} came from the ${letter.source}, not from ingest: re-run \`earshot replay\` once the projector is fixed`,
    );
  }
  if (!letter.tenant_id) throw new ApiError('VALIDATION_ERROR', `dead letter ${letter.id} names no tenant to replay it for`);
  const { body } = letter;
  // Not the request at fault, nor anything a retry mends: refused like the letters above that cannot be replayed.
  if (letter.unreadable) {
    throw new ApiError(
      'VALIDATION_ERROR',
      `dead letter ${letter.id} cannot be replayed: its sealed body cannot be opened (its bytes were altered, or it is not sealed with the key it names)`,
    );
  }
  if (body === undefined)
    throw new ApiError('ERASED', `dead letter ${letter.id} was erased with its data key (its call's or its tenant's): its body cannot be replayed`);
  // A letter written in the clear outlives its deleted tenant in the topic (a rebuild brings it back); the intake would fail on the missing tenant.
  const [tenant] = await platformQuery(db, sql`select 1 from tenants where id = ${letter.tenant_id}`);
  if (!tenant) throw new ApiError('ERASED', `dead letter ${letter.id} belongs to tenant ${letter.tenant_id}, which was deleted: it cannot be replayed`);
  const sender: Sender = {
    tenantId: letter.tenant_id,
    provider: letter.provider && PROVIDER_PATTERN.test(letter.provider) ? letter.provider : 'unknown',
    receivedAt: now,
  };
  const outcomes = await resubmit(intake, sender, letter.id, body);
  const busy = outcomes.find((o) => !o.result.ok && o.result.code === 'IDEMPOTENCY_CONFLICT');
  if (busy && !busy.result.ok) throw new ApiError('IDEMPOTENCY_CONFLICT', `${busy.result.error}; dead letter ${letter.id} is unchanged`);
  const accepted = outcomes.flatMap((o) => (o.result.ok ? [o.result.id] : []));
  const [only] = outcomes;
  const failedAgain = outcomes.length === 1 && only?.result.ok === false && only.result.code === 'VALIDATION_ERROR' ? only.result : undefined;
  await platformQuery(
    db,
    sql`
    update dead_letters
       set replay_attempts = replay_attempts + 1, last_replayed_at = ${now}, updated_at = now(),
           status = ${failedAgain ? 'held' : 'replayed'},
           reason = ${failedAgain ? failedAgain.error : sql`reason`},
           fields = ${failedAgain ? sql`${JSON.stringify(failedAgain.fields)}::jsonb` : sql`fields`},
           replayed_event_ids = replayed_event_ids || ${accepted}::text[]
     where id = ${letter.id}`,
  );
  if (failedAgain) {
    throw new ApiError('VALIDATION_ERROR', `the replay failed again; dead letter ${letter.id} stays held: ${failedAgain.error}`, {
      fields: failedAgain.fields,
      deadLetterId: letter.id,
    });
  }
  return { ok: true, deadLetterId: letter.id, status: 'replayed', results: outcomes.map((o) => o.result) };
}

async function resubmit(intake: Intake, sender: Sender, id: string, body: Buffer): Promise<EnvelopeOutcome[]> {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (error) {
    const reason = `the body is not JSON: ${error instanceof Error ? error.message : String(error)}`;
    return [await intake.rejectBody(sender, body, reason, [{ path: '(body)', message: reason }], id)];
  }
  const inputs: EnvelopeInput[] = Array.isArray(value)
    ? (value as unknown[]).map((item, index) => ({ value: item, raw: Buffer.from(JSON.stringify(item)), label: `envelope ${index} of the batch` }))
    : [{ value, raw: body, deadLetterId: id }];
  if (inputs.length === 0) return [await intake.rejectBody(sender, body, 'the batch is empty', [{ path: '(body)', message: 'the batch is empty' }], id)];
  return intake.accept(sender, inputs);
}
