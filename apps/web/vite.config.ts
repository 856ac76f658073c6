import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';

const api = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  // The server sends the gzip and brotli copies written beside the text files (build/precompress.ts).
  plugins: [svelte(), precompress()],
  // The board geometry (@bke/map, ~0.8 MB of SVG paths) is its own lazily loaded chunk. No source
  // maps in the build: the server would hand them to anyone; `vite` (dev) has its own.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1200 },
  server: {
    proxy: {
      '/api': api,
      '/socket.io': { target: api, ws: true },
    },
  },
});
