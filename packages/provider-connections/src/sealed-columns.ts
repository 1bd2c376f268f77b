import type { SealedColumns } from '@earshot/auth';

/** The credentials sealed under the master key, for its rotation; each tenant's rows are reached as that tenant. */
export const PROVIDER_CONNECTION_SEALED_COLUMNS: readonly SealedColumns[] = [
  { table: 'provider_connections', id: 'id', columns: ['credentials', 'previous_credentials'], perTenant: true },
];
