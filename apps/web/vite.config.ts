import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

const api = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [svelte()],
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
