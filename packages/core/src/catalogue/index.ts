export type * from './types.js';
export * from './timeframes.js';
export * from './offers.js';
export * from './symbols.js';
export * from './strategies.js';
export * from './params.js';
export * from './breakdowns.js';
export { SUGGESTION_MAX_INPUT, closest, editDistance } from './closest.js';
export * from './docs/strategies.js';
