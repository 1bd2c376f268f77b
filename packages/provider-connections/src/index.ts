export {
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  rotateConnectionCredentials,
  setConnectionStatus,
  type ConnectionFilter,
  type ConnectionRecord,
  type NewConnection,
} from './connection-store';
export { ConnectionCache, findDeliveryConnection, type DeliveryConnection } from './delivery-connection';

/** The provider_connections table; applied by the targets that manage connections (keys) and take their deliveries (gateway). */
export const PROVIDER_CONNECTIONS_MIGRATIONS = { module: 'provider-connections', directory: new URL('../migrations/', import.meta.url) } as const;
export { publicOrigin, webhookUrl } from './webhook-url';
export { PROVIDER_CONNECTION_SEALED_COLUMNS } from './sealed-columns';
