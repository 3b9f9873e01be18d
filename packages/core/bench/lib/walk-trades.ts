// The trades of a run as the walk reads them, and the engine's walk over all of them: what the
// walk benchmarks (native-walk, sweep-walk) compare their walks against.
import { fastWalk, walkIn, walkOutCandles, walkOutPrices, type PriceBlocks } from '@bt/core';

export interface WalkInput {
  readonly side: Int8Array;
  readonly entryIndex: Int32Array;
  readonly fill: Float64Array;
  readonly sl: Float64Array;
  readonly tp1: Float64Array;
  readonly tp2: Float64Array;
  readonly resting: Uint8Array;
}

/** The walk alone, as simulateTable calls it, over trades [from, to) in entry order; `out` keeps the results alive. */
export function walkChunk(blocks: PriceBlocks, t: WalkInput, out: Int32Array, from: number, to: number): void {
  for (let k = from; k < to; k++) {
    walkIn[0] = t.fill[k];
    walkIn[1] = t.sl[k];
    walkIn[2] = t.tp1[k];
    walkIn[3] = t.tp2[k];
    fastWalk(blocks, t.side[k], t.entryIndex[k], t.resting[k] === 1);
    out[k] = walkOutCandles[0] + walkOutCandles[4] + (walkOutPrices[0] > 0 ? 1 : 0);
  }
}
