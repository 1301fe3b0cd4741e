import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      'adapters/express': 'src/adapters/express.ts',
      'adapters/hono': 'src/adapters/hono.ts',
      'adapters/node': 'src/adapters/node.ts',
      metrics: 'src/metrics/index.ts',
      'adapters/vercel-ai': 'src/adapters/vercel-ai.ts',
      linkify: 'src/linkify/index.ts',
      client: 'src/client.ts',
      'stores/redis': 'src/stores/redis.ts',
      mcp: 'src/mcp/index.ts',
      cli: 'src/cli/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node22',
    splitting: true,
    treeshake: true,
    // import.meta.url (used to find the shipped geo database) must also work in the CJS build.
    shims: true,
  },
  {
    // `linkify` for the playground page: one self-contained browser module, served as a file.
    // Its own outDir: the two configs build in parallel, and the first one's `clean` empties
    // dist/ at a moment we do not control.
    entry: { linkify: 'src/linkify/browser.ts' },
    outDir: 'dist-browser',
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    splitting: false,
    dts: false,
    sourcemap: false,
    clean: true,
  },
]);
