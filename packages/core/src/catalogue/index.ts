export type * from './types.js';
export * from './timeframes.js';
export * from './offers.js';
