export { main } from './main';
export { composeTargets } from './targets';
