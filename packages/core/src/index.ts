// @bt/core: one library for the CLI, the server and the web app (docs/architecture.md §1).
// Browser-safe; Node-only helpers live under `@bt/core/node`.
export * from './catalogue/index.js';
export * from './candles/index.js';
export * from './params/index.js';
export * from './indicators/index.js';
export type * from './simulate/types.js';
export * from './stats/index.js';
export * from './format/index.js';
export * from './report/index.js';
export * from './patterns/index.js';
export * from './strategies/index.js';
export * from './simulate/index.js';
export * from './backtest/index.js';
export * from './costs/index.js';
export * from './montecarlo/index.js';
export * from './optimize/index.js';
