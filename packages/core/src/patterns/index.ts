export type { PriceSeries, PatternKind, Direction, Setups } from './types.js';
export { detectFvg, detectImpulsiveFvg, type FvgOptions } from './fvg.js';
export { detectOrderBlocks, type OrderBlockOptions } from './order-block.js';
export { detectEngulfing } from './engulfing.js';
export { applyConfirmCandle, keepSide, mitigationIndices } from './refine.js';
