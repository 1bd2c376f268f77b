import { afterAll, beforeAll } from 'vitest';
import { migrate, type ConnectionPool } from '@earshot/db';
import { openTestDatabase, uniqueNamespace } from '@earshot/testing';
import { eventLogContract } from '../contract/event-log.contract';
import { EMBEDDED_LOG_MIGRATIONS } from './migrations';
import { createEmbeddedLog } from './embedded-log';

let db: ConnectionPool;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, url, close } = await openTestDatabase('embedded_log'));
  await migrate(db, [EMBEDDED_LOG_MIGRATIONS]);
});
afterAll(async () => close());

eventLogContract('embedded (PostgreSQL)', (namespace = uniqueNamespace('log')) => createEmbeddedLog({ db, url, namespace }));
