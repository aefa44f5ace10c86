import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Preact's automatic JSX runtime through esbuild: no plugin needed.
export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  // libs/contracts' status sets come from its dependency-free module, compiled with the site (tsconfig.json says the same).
  resolve: { alias: { '@transmute/contracts/operations': fileURLToPath(new URL('../../libs/contracts/src/operations.ts', import.meta.url)) } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2020', sourcemap: false },
  server: { proxy: { '/v1': 'http://127.0.0.1:8080', '/web': 'http://127.0.0.1:8080', '/storage': 'http://127.0.0.1:8080' } },
});
