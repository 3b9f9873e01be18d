// @bt/core: one library for the CLI, the server and the web app (DESIGN §1).
// Browser-safe; Node-only helpers live under `@bt/core/node`.
export type * from './catalogue/types.js';
export type * from './candles/types.js';
export type * from './simulate/types.js';
export { OHLCV_COLUMNS } from './candles/types.js';
