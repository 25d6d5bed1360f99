import { defineConfig } from 'vite';

// The Console: a Preact single-page app. `npm run build:console` (and `npm start`, when the build is
// missing or stale) writes it to console/dist, which the service serves at `/`.
// Preact's JSX runtime through Vite's own transformer (Oxc): no framework plugin needed.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: true,
  },
  server: {
    // `npm run dev:console`: the API of a service started with `npm start` on port 3000.
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
});
