import { issueApiKey, newWebhookSecret, parseApiKey, provisionTenant } from '@earshot/auth';
import type { Module, Runtime } from '@earshot/server';
import { readDemoCredentials, writeDemoCredentials, type DemoCredentials } from './demo-credentials';

/** The demonstration tenant's id: fixed, so every start finds the same tenant in the data directory's database. */
export const DEMO_TENANT_ID = '5e1d0e7a-0c3b-4d5f-9a2e-de70de70de70';
const DEMO_TENANT_NAME = 'Demo';
export const DEMO_TENANT_MODULE = 'demo-tenant';

/**
 * The credentials to use: EARSHOT_DEMO_API_KEY / EARSHOT_DEMO_WEBHOOK_SECRET
 * when set, else those kept in demo.json, else new ones.
 */
export function demoCredentials(config: Runtime['config']): DemoCredentials {
  const kept = readDemoCredentials(config.EARSHOT_DATA_DIR);
  const apiKey = config.EARSHOT_DEMO_API_KEY ?? kept?.apiKey ?? issueApiKey('production').key;
  if (!parseApiKey(apiKey)) {
    throw new Error(
      'EARSHOT_DEMO_API_KEY: not a valid key (ear_live_ or ear_test_, 32 random base62 characters, then their 6-character checksum); leave it unset to get one',
    );
  }
  return {
    tenantId: DEMO_TENANT_ID,
    apiKey,
    webhookSecret: config.EARSHOT_DEMO_WEBHOOK_SECRET ?? kept?.webhookSecret ?? newWebhookSecret(),
  };
}

/**
 * The demonstration tenant, made to exist at every start (idempotently) and
 * its credentials written to `${EARSHOT_DATA_DIR}/demo.json` (mode 0600),
 * where `earshot demo` and the start banner find them.
 */
export function demoTenantModule(runtime: Runtime): Module {
  return {
    name: DEMO_TENANT_MODULE,
    dependsOn: ['database', 'access'],
    start: async () => {
      const credentials = demoCredentials(runtime.config);
      await provisionTenant(runtime.database(), runtime.access().secrets, {
        id: credentials.tenantId,
        name: DEMO_TENANT_NAME,
        apiKey: credentials.apiKey,
        webhookSecret: credentials.webhookSecret,
      });
      writeDemoCredentials(runtime.config.EARSHOT_DATA_DIR, credentials);
      return { stop: async () => undefined };
    },
  };
}
