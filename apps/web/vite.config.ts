import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';

const api = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  // The server sends the gzip and brotli copies written beside the text files (build/precompress.ts).
  plugins: [svelte(), precompress()],
  // The board geometry (@bke/map, ~0.8 MB of SVG paths) is its own lazily loaded chunk. No source
  // maps in the build: the server would hand them to anyone; `vite` (dev) has its own.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      output: {
        // zod and the module that turns its eval off share one chunk, which every chunk building a
        // schema imports: zod is told not to compile before any schema exists, whichever chunk
        // the bundler puts the first schema in (the policy forbids eval; packages/protocol/src/no-eval.ts).
        manualChunks: (id) => (/[\\/]node_modules[\\/].*zod[\\/]|no-eval\.ts$/.test(id) ? 'zod' : undefined),
      },
    },
  },
  server: {
    proxy: {
      '/api': api,
      '/socket.io': { target: api, ws: true },
    },
  },
});
