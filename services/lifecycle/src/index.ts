export { abandonSilentCalls } from './abandonment';
export { LIFECYCLE_MIGRATIONS, lifecycleModule, type LifecycleOptions } from './lifecycle';
