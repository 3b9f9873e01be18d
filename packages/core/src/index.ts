// @bt/core: one library for the CLI, the server and the web app (DESIGN §1).
// Browser-safe; Node-only helpers live under `@bt/core/node`.
export * from './catalogue/index.js';
export * from './candles/index.js';
export * from './params/index.js';
export * from './indicators/index.js';
export type * from './simulate/types.js';
