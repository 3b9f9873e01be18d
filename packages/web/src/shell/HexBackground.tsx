import { useEffect, useRef, useState } from 'react';
import { backgroundMode, blurForDpr, hexCenters, hexCorners, pulsedRadius, HEX, type BackgroundMode } from './hexGeometry.js';

interface Blob {
  x: number;
  y: number;
  dx: number;
  dy: number;
  radius: number;
  periodMs: number;
  phase: number;
  color: string;
}

const BLOB_COLORS = ['rgba(56, 189, 248, 0.55)', 'rgba(99, 102, 241, 0.5)', 'rgba(37, 99, 235, 0.5)', 'rgba(16, 185, 129, 0.35)'];
const CELL_FILL = '#070b16';

function detectMode(): BackgroundMode {
  const canvas = document.createElement('canvas');
  let canvasSupported = false;
  try {
    canvasSupported = !!canvas.getContext && !!canvas.getContext('2d');
  } catch {
    canvasSupported = false;
  }
  const nav = navigator as Navigator & { deviceMemory?: number };
  const reducedMotion = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  return backgroundMode({ deviceMemory: nav.deviceMemory, canvasSupported, reducedMotion });
}

function makeBlobs(width: number, height: number, count: number): Blob[] {
  const blobs: Blob[] = [];
  for (let i = 0; i < count; i++) {
    // Evenly spread seeds: the background looks the same on every visit.
    const t = (i + 0.5) / count;
    blobs.push({
      x: width * (0.15 + 0.7 * ((t * 7.3) % 1)),
      y: height * (0.2 + 0.6 * ((t * 3.7) % 1)),
      dx: (i % 2 === 0 ? 1 : -1) * (0.012 + 0.004 * i),
      dy: (i % 3 === 0 ? -1 : 1) * (0.009 + 0.003 * i),
      radius: Math.max(width, height) * (0.16 + 0.04 * (i % 3)),
      periodMs: 5200 + 900 * i,
      phase: i * 1.3,
      color: BLOB_COLORS[i % BLOB_COLORS.length],
    });
  }
  return blobs;
}

/** Cells drawn once per size on an offscreen layer; only the light blobs move each frame. */
function drawCells(layer: HTMLCanvasElement, width: number, height: number, dpr: number): void {
  layer.width = Math.ceil(width * dpr);
  layer.height = Math.ceil(height * dpr);
  const ctx = layer.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = CELL_FILL;
  for (const center of hexCenters(width, height, HEX.edge)) {
    const corners = hexCorners(center, HEX.edge, HEX.gap);
    ctx.beginPath();
    ctx.moveTo(corners[0].x, corners[0].y);
    for (let i = 1; i < 6; i++) ctx.lineTo(corners[i].x, corners[i].y);
    ctx.closePath();
    ctx.fill();
  }
}

export function HexBackground() {
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const [mode] = useState<BackgroundMode>(() => (typeof document === 'undefined' ? 'static' : detectMode()));

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || mode === 'static') return;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const layer = document.createElement('canvas');
    let width = 0;
    let height = 0;
    let dpr = 1;
    let blobs: Blob[] = [];
    let frame = 0;
    const started = performance.now();

    const resize = () => {
      dpr = Math.min(window.devicePixelRatio || 1, 2);
      width = window.innerWidth;
      height = window.innerHeight;
      canvas.width = Math.ceil(width * dpr);
      canvas.height = Math.ceil(height * dpr);
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
      drawCells(layer, width, height, dpr);
      blobs = makeBlobs(width, height, mode === 'lite' ? 2 : 4);
      if (mode === 'lite') draw(0);
    };

    const draw = (elapsed: number) => {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.fillStyle = '#03050b';
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      // Lite mode skips the blur filter: it is the expensive part on small devices.
      ctx.filter = mode === 'lite' ? 'none' : `blur(${blurForDpr(dpr) / dpr}px)`;
      for (const blob of blobs) {
        const radius = pulsedRadius(blob.radius, elapsed, blob.periodMs, blob.phase);
        const x = (((blob.x + blob.dx * elapsed) % (width + radius)) + width + radius) % (width + radius);
        const y = (((blob.y + blob.dy * elapsed) % (height + radius)) + height + radius) % (height + radius);
        const gradient = ctx.createRadialGradient(x, y, 0, x, y, radius);
        gradient.addColorStop(0, blob.color);
        gradient.addColorStop(1, 'rgba(0,0,0,0)');
        ctx.fillStyle = gradient;
        ctx.beginPath();
        ctx.arc(x, y, radius, 0, Math.PI * 2);
        ctx.fill();
      }
      ctx.filter = 'none';
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(layer, 0, 0);
    };

    const loop = (now: number) => {
      draw(now - started);
      frame = requestAnimationFrame(loop);
    };

    resize();
    window.addEventListener('resize', resize);
    if (mode === 'animated') frame = requestAnimationFrame(loop);
    return () => {
      window.removeEventListener('resize', resize);
      cancelAnimationFrame(frame);
    };
  }, [mode]);

  if (mode === 'static') return <div className="hex-fallback" aria-hidden="true" data-mode="static" />;
  return <canvas id="hex-canvas" ref={canvasRef} className="hex-canvas" aria-hidden="true" data-mode={mode} />;
}
