export { main } from './main';
export { composeTargets } from './targets';
// The demo's traffic, for the end-to-end scenarios and the startup bench that send what `earshot demo` sends.
export type { CallFate } from './demo/call-script';
export { DemoCredentialsSchema } from './demo/demo-credentials';
export { sendDemoTraffic, type DemoTarget } from './demo/demo-sender';
export { generateDemoTraffic, TENANT_PROVIDER, type DemoTraffic } from './demo/demo-traffic';
