export { gatewayModule, GATEWAY_MIGRATIONS, type GatewayOptions } from './gateway';
