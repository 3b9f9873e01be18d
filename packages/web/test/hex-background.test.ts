import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HEX, backgroundMode, blurForDpr, hexCenters, hexCorners, pulsedRadius } from '../src/shell/hexGeometry.js';

describe('hexagon background (docs/product.md §1.2, §1.9)', () => {
  it('chooses lite mode at 2 GB of device memory or less, static without canvas', () => {
    assert.equal(backgroundMode({ canvasSupported: true, deviceMemory: 8 }), 'animated');
    assert.equal(backgroundMode({ canvasSupported: true }), 'animated');
    assert.equal(backgroundMode({ canvasSupported: true, deviceMemory: 2 }), 'lite');
    assert.equal(backgroundMode({ canvasSupported: true, deviceMemory: 0.5 }), 'lite');
    assert.equal(backgroundMode({ canvasSupported: true, reducedMotion: true }), 'lite');
    assert.equal(backgroundMode({ canvasSupported: false, deviceMemory: 8 }), 'static');
  });

  it('tiles edge-80 hexagons with a 3 px gap between neighbours', () => {
    assert.deepEqual([HEX.edge, HEX.gap], [80, 3]);
    const centers = hexCenters(800, 600);
    assert.ok(centers.some((c) => c.x <= 0 && c.y <= 0) && centers.some((c) => c.x >= 800 && c.y >= 600), 'covers the area');
    // Two vertical neighbours: distance between their facing sides equals the gap.
    const a = hexCorners({ x: 0, y: 0 });
    const b = hexCorners({ x: 0, y: Math.sqrt(3) * HEX.edge });
    const bottomOfA = Math.max(...a.map((p) => p.y));
    const topOfB = Math.min(...b.map((p) => p.y));
    assert.ok(Math.abs(topOfB - bottomOfA - HEX.gap) < 1e-9);
  });

  it('pulses blob radii by 6 % and scales blur by the pixel ratio', () => {
    const radii = Array.from({ length: 100 }, (_, i) => pulsedRadius(100, i * 50, 5000));
    assert.ok(Math.abs(Math.max(...radii) - 106) < 0.1 && Math.abs(Math.min(...radii) - 94) < 0.1);
    assert.equal(blurForDpr(1), 40);
    assert.equal(blurForDpr(2), 80);
    assert.equal(blurForDpr(undefined), 40);
  });
});
