import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { EventData } from '@earshot/contracts';
import { DATABASE_MIGRATIONS, migrate, type ConnectionPool } from '@earshot/db';
import { sampleEvent } from '@earshot/events/samples';
import type { EventLog } from '@earshot/log';
import { kafkaLog, openTestDatabase, projectionSpec } from '@earshot/testing';
import { PROJECTOR_MIGRATIONS } from '@earshot/projector';

const created = (tenant: string, id: string) => sampleEvent('incident.created', { tenant, idempotency_key: `${id}:created`, data: { incident_id: id } });
const updated = (tenant: string, id: string, minute: number, data: Partial<EventData<'incident.updated'>>) =>
  sampleEvent('incident.updated', {
    tenant,
    idempotency_key: `${id}:update:${minute}`,
    occurred_at: `2026-01-08T09:${String(minute).padStart(2, '0')}:00.000Z`,
    data: { incident_id: id, severity: null, status: null, note: null, resolved_at: null, ...data },
  });

describe('the incidents read model', () => {
  let db: ConnectionPool;
  let log: EventLog;
  let close: () => Promise<void>;
  let spec: ReturnType<typeof projectionSpec>;

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('incidents'));
    await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    log = await kafkaLog('incidents');
    spec = projectionSpec({ db, log });
  });
  afterAll(async () => {
    await log.close();
    await close();
  });

  it('keeps the fields an update leaves null and adds its note', async () => {
    const tenant = randomUUID();
    await spec
      .given(created(tenant, 'inc_1'))
      .when(updated(tenant, 'inc_1', 40, { status: 'acknowledged', note: 'Looking at v42.', updated_by: 'bo@acme.example' }))
      .then('incidents', 'id', [
        {
          id: 'inc_1',
          title: 'Slow replies on the support agent',
          severity: 'high',
          status: 'acknowledged',
          resolved_at: null,
          notes: [{ note: 'Looking at v42.', by: 'bo@acme.example' }],
        },
      ]);
  });

  it('comes out the same when the resolution arrives before the creation', async () => {
    const tenant = randomUUID();
    await spec
      .given(updated(tenant, 'inc_2', 44, { status: 'resolved', note: 'Rolled back.', resolved_at: '2026-01-08T09:44:00.000Z' }))
      .when(created(tenant, 'inc_2'))
      .then('incidents', 'id', [
        { id: 'inc_2', title: 'Slow replies on the support agent', status: 'resolved', resolved_at: new Date('2026-01-08T09:44:00.000Z') },
      ]);
  });

  it('adds a repeated update’s note once', async () => {
    const tenant = randomUUID();
    const note = updated(tenant, 'inc_3', 41, { note: 'Paged the on-call.' });
    await spec
      .given(created(tenant, 'inc_3'), note)
      .when(note)
      .then('incidents', 'id', [{ id: 'inc_3', status: 'investigating', notes: [{ note: 'Paged the on-call.' }] }]);
  });
});
