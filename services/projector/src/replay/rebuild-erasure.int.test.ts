import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MIGRATIONS, createTenant, DataKeys, SecretBox } from '@earshot/auth';
import { DATABASE_MIGRATIONS, inTenant, migrate, ownerInTenant, sql, type ConnectionPool } from '@earshot/db';
import { callIdOf } from '@earshot/events';
import type { EventLog } from '@earshot/log';
import { deleteCallRows } from '@earshot/read-models';
import { appendEvents, callScript, kafkaLog, openTestDatabase, waitUntilCaughtUp } from '@earshot/testing';
import { startProjector } from '../projector';
import { PROJECTOR_MIGRATIONS } from '../store/migration-sets';
import { rebuildReadModels } from './rebuild';

/**
 * A call erased while a rebuild runs, after the copy applied its events: the
 * erasure deletes the live rows, and the copy swapped in must not bring them
 * back.
 */
describe('a rebuild during a call’s erasure', () => {
  let db: ConnectionPool;
  let log: EventLog;
  let close: () => Promise<void>;
  const master = new SecretBox(randomBytes(32));

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('rebuild_erasure'));
    await migrate(db, [DATABASE_MIGRATIONS, AUTH_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    log = await kafkaLog('rebuild-erasure');
  });
  afterAll(async () => {
    await log.close();
    await close();
  });

  it('deletes from the swapped-in copy the rows of a call erased since the rebuild began', async () => {
    const dataKeys = new DataKeys(db, master);
    const tenant = (await createTenant(db, master, { name: 'Erased during a rebuild' })).tenant.id;
    const erasedEvents = callScript({ tenant, providerCallId: 'call-erased', turns: 3, ending: 'completed' });
    const kept = callScript({ tenant, providerCallId: 'call-kept', turns: 3, ending: 'completed' });
    const erasedId = callIdOf(tenant, erasedEvents[0]?.provider ?? '', 'call-erased');
    await appendEvents(log, [...erasedEvents, ...kept]);
    const projector = await startProjector({ db, log, erasedCalls: (calls) => dataKeys.erasedCalls(calls) });
    await waitUntilCaughtUp(db, log);

    let erased = false;
    await rebuildReadModels({
      db,
      log,
      from: 'earliest',
      // The erasure commits just after the copy's batch of the call learned it was not erased: the copy writes its rows.
      erasedCalls: async (calls) => {
        const lookup = await dataKeys.erasedCalls(calls);
        if (!erased && calls.some((call) => call.callId === erasedId)) {
          erased = true;
          await ownerInTenant(db, tenant, async (tx) => {
            await dataKeys.eraseCall(tenant, erasedId, tx);
            await deleteCallRows(tx, tenant, erasedId);
          });
        }
        return lookup;
      },
      erasedSince: (tx, since) => DataKeys.erasedSince(tx, since),
    });
    await projector.stop();

    const rows = (await inTenant(db, tenant, (tx) => tx.query(sql`select provider_call_id from calls order by provider_call_id`))) as {
      provider_call_id: string;
    }[];
    expect({ erased, calls: rows.map((row) => row.provider_call_id) }).toEqual({ erased: true, calls: ['call-kept'] });
  });
});
