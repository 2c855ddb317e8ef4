import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests run against the TypeScript sources; plain Node uses the built `dist`.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@episodic\/core\/testing$/, replacement: source('./packages/core/src/testing/index.ts') },
      { find: /^@episodic\/core\/internal$/, replacement: source('./packages/core/src/internal.ts') },
      { find: /^@episodic\/core\/node$/, replacement: source('./packages/core/src/node.ts') },
      { find: /^@episodic\/core$/, replacement: source('./packages/core/src/index.ts') },
      { find: /^@episodic\/tools$/, replacement: source('./packages/tools/src/index.ts') },
      { find: /^@episodic\/providers\/internal$/, replacement: source('./packages/providers/src/internal.ts') },
      { find: /^@episodic\/providers\/(openai|anthropic|google|openai-compatible)$/, replacement: source('./packages/providers/src/$1/index.ts') },
      { find: /^@episodic\/providers$/, replacement: source('./packages/providers/src/index.ts') },
      { find: /^@episodic\/postgres\/testing$/, replacement: source('./packages/postgres/src/testing/index.ts') },
      { find: /^@episodic\/postgres$/, replacement: source('./packages/postgres/src/index.ts') },
      { find: /^@episodic\/dbos$/, replacement: source('./packages/dbos/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'examples/*/src/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
  },
});
