import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Every test file; `npm test` (plain `vitest run`) runs all three projects below. */
const allTests = ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'examples/*/src/**/*.test.ts'];

/** Tests that open a page in Chromium. */
const browserTests = [
  'test/budget-report-browser.test.ts',
  'test/web-chat-browser.test.ts',
  'test/hardening/web-chat-attacks.test.ts',
  'test/hardening/chat-handler-attacks.test.ts',
  'test/bundles/**/*.test.ts',
];

/** Tests that need PostgreSQL (a server or PGlite), pack the packages, or run crashes and disk faults. */
const integrationTests = [
  'test/session-stores/**/*.test.ts',
  'test/approvals/**/*.test.ts',
  'test/crash/**/*.test.ts',
  'test/packaging/**/*.test.ts',
  'test/hardening/postgres-faults.test.ts',
  'test/hardening/disk-faults.test.ts',
  'packages/dbos/src/**/*.test.ts',
  'packages/restate/src/**/*.test.ts',
  'packages/cli/src/store-source.test.ts',
  'packages/cli/src/commands/replay-cache.test.ts',
  'examples/worker-pool/src/fault-run.test.ts',
  'examples/worker-pool/src/pool-backend.dbos.test.ts',
  'test/examples/basics-postgres.test.ts',
  'test/examples/basics-dbos.test.ts',
  'test/examples/basics-restate.test.ts',
  'test/readme-durable.test.ts',
  'examples/worker-pool/src/restate-fault-run.test.ts',
];

// Tests run against the TypeScript sources; plain Node uses the built `dist`.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@episodic\/core\/testing$/, replacement: source('./packages/core/src/testing/index.ts') },
      { find: /^@episodic\/core\/internal$/, replacement: source('./packages/core/src/internal.ts') },
      { find: /^@episodic\/core\/node$/, replacement: source('./packages/core/src/node.ts') },
      { find: /^@episodic\/core\/(transcript|packing|reasoning|schema|telemetry|ui-stream)$/, replacement: source('./packages/core/src/$1.ts') },
      { find: /^@episodic\/core$/, replacement: source('./packages/core/src/index.ts') },
      { find: /^@episodic\/tools\/mcp$/, replacement: source('./packages/tools/src/mcp.ts') },
      { find: /^@episodic\/tools$/, replacement: source('./packages/tools/src/index.ts') },
      { find: /^@episodic\/providers\/internal$/, replacement: source('./packages/providers/src/internal.ts') },
      { find: /^@episodic\/providers\/(openai|anthropic|google|openai-compatible)$/, replacement: source('./packages/providers/src/$1/index.ts') },
      { find: /^@episodic\/providers$/, replacement: source('./packages/providers/src/index.ts') },
      { find: /^@episodic\/postgres\/testing$/, replacement: source('./packages/postgres/src/testing/index.ts') },
      { find: /^@episodic\/postgres$/, replacement: source('./packages/postgres/src/index.ts') },
      { find: /^@episodic\/ai-sdk$/, replacement: source('./packages/ai-sdk/src/index.ts') },
      { find: /^@episodic\/dbos$/, replacement: source('./packages/dbos/src/index.ts') },
      { find: /^@episodic\/restate\/testing$/, replacement: source('./packages/restate/src/testing/index.ts') },
      { find: /^@episodic\/chat$/, replacement: source('./packages/chat/src/index.ts') },
      { find: /^@episodic\/restate$/, replacement: source('./packages/restate/src/index.ts') },
    ],
  },
  test: {
    testTimeout: 30_000,
    pool: 'forks',
    // Programs a test spawns or bundles load the packages' bundles: rebuilt first when older than `dist`.
    globalSetup: ['test/support/fresh-bundles.ts'],
    // The projects split the files, each exactly once: the unit set is everything else.
    projects: [
      {
        extends: true,
        // Says once per run when the real-data suites step aside (no shared fixtures beside the clone).
        test: { name: 'unit', include: allTests, exclude: [...integrationTests, ...browserTests], globalSetup: ['test/support/fixtures-notice.ts'] },
      },
      { extends: true, test: { name: 'integration', include: integrationTests } },
      { extends: true, test: { name: 'browser', include: browserTests } },
    ],
  },
});
