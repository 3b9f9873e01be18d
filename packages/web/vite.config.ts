import { defineConfig, defaultClientConditions } from 'vite';
import react from '@vitejs/plugin-react';

// `@bt/source` makes Vite bundle @bt/core from its TypeScript sources (no core build needed),
// the same condition tsx and tsc use. The dev server proxies /api to a local bt server.
export default defineConfig({
  plugins: [react()],
  resolve: {
    conditions: ['@bt/source', ...defaultClientConditions],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: scripts/bundle-size.ts reads the chunk graph from it.
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: { '/api': process.env.BT_API_PROXY ?? 'http://127.0.0.1:8080' },
  },
});
