/**
 * The shared conformance suite every model adapter runs against its loopback
 * wire server (one call per adapter, like hono's router suite). Every scenario
 * runs through the real agent loop (`Agent`/`Session`); scenarios are scripted
 * in neutral terms, assertions read the neutral view of what each server
 * received, what reasoning goes back follows the adapter's profile retention,
 * and provider-specific checks plug in through `hooks`.
 *
 * Usage:
 * ```ts
 * runConformance({
 *   name: 'anthropic',
 *   startServer: () => startAnthropicServer(),
 *   createAdapter: (url, { model }) => createAnthropicAdapter({ model, baseURL: url, apiKey: 'test' }),
 *   models: { primary: 'claude-sonnet-4-6', secondary: 'claude-haiku-4-5' },
 * });
 * ```
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import { type ConformanceTarget, Harness, retentionOf, type ScenarioName } from './conformance-harness.js';
import { scenarios } from './conformance-scenarios.js';

export {
  type ConformanceTarget,
  expectNoOrphans,
  type ScenarioName,
  type ScenarioResult,
} from './conformance-harness.js';

/** Defines the suite for one adapter. */
export function runConformance(target: ConformanceTarget): void {
  // Building an adapter opens no connection; this one only names the retention under test.
  const retention = retentionOf(target.createAdapter('http://127.0.0.1:9', { model: target.models.primary }));
  describe(`${target.name} conformance (agent loop, retention ${retention})`, () => {
    let harness: Harness;
    beforeEach(async () => {
      harness = await Harness.start(target);
    });
    afterEach(async () => {
      await harness.close();
    });

    for (const [name, scenario] of Object.entries(scenarios) as [ScenarioName, (typeof scenarios)[ScenarioName]][]) {
      it(scenario.title, async () => {
        const result = await scenario.run(harness);
        await target.hooks?.afterScenario?.(name, result);
      });
    }
  });
}
