/**
 * The OpenAI-compatible adapter runs the shared conformance suite once per family
 * profile, each against the loopback chat server configured with that family's
 * rules (reasoning field accepted, required or rejected, with the real errors).
 * Each family runs with its own profile's retention (`none` for R1, `tool-episodes`
 * for DeepSeek thinking and Kimi, `all` for GLM, `episode` for the rest), and the
 * suite expects past reasoning back exactly as that retention keeps it.
 */
import { expect } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../packages/providers/src/openai-compatible/openai-compatible-adapter.js';
import type { CompatibleProfile } from '../../packages/providers/src/profiles/openai-compatible.js';
import type { ChatFamily } from '../servers/openai-chat-rules.js';
import { startOpenAIChatServer } from '../servers/openai-chat-server.js';
import { runConformance } from './conformance.js';

interface FamilyCase {
  family: ChatFamily;
  provider: string;
  models: { primary: string; secondary: string };
  /** The wire field reasoning must go back in (undefined: never sent). */
  field?: string;
  /** Further profile overrides for this case. */
  profile?: Partial<CompatibleProfile>;
}

const cases: FamilyCase[] = [
  {
    family: 'deepseek-r1',
    provider: 'deepseek',
    models: { primary: 'deepseek-r1', secondary: 'deepseek-r1-0528' },
  },
  {
    family: 'deepseek-reasoner',
    provider: 'deepseek',
    models: { primary: 'deepseek-reasoner', secondary: 'deepseek-v4-flash' },
    field: 'reasoning_content',
  },
  {
    family: 'deepseek-thinking',
    provider: 'deepseek',
    models: { primary: 'deepseek-v3.2', secondary: 'deepseek-v4-flash' },
    field: 'reasoning_content',
  },
  {
    family: 'zai',
    provider: 'zai',
    models: { primary: 'glm-4.6', secondary: 'glm-5' },
    field: 'reasoning_content',
  },
  {
    family: 'kimi',
    provider: 'moonshot',
    models: { primary: 'kimi-k2-thinking', secondary: 'kimi-k2.7-code' },
    field: 'reasoning_content',
  },
  { family: 'minimax', provider: 'minimax', models: { primary: 'MiniMax-M2', secondary: 'MiniMax-M2.1' } },
  {
    family: 'openrouter',
    provider: 'openrouter',
    models: { primary: 'anthropic/claude-sonnet-4.5', secondary: 'deepseek/deepseek-v3.2' },
    field: 'reasoning_details',
  },
  {
    family: 'groq',
    provider: 'groq',
    models: { primary: 'openai/gpt-oss-120b', secondary: 'qwen/qwen3-32b' },
    field: 'reasoning',
  },
  {
    family: 'cerebras',
    provider: 'cerebras',
    models: { primary: 'qwen-3-32b', secondary: 'gpt-oss-120b' },
    field: 'reasoning',
  },
  {
    family: 'fireworks',
    provider: 'fireworks',
    models: { primary: 'accounts/fireworks/models/glm-4p6', secondary: 'accounts/fireworks/models/kimi-k2-thinking' },
    field: 'reasoning_content',
  },
  {
    family: 'ollama',
    provider: 'ollama',
    models: { primary: 'qwen3:8b', secondary: 'deepseek-r1:8b' },
    field: 'reasoning',
  },
  {
    family: 'vllm',
    provider: 'vllm',
    models: { primary: 'Qwen/Qwen3-8B', secondary: 'Qwen/Qwen3-32B' },
    field: 'reasoning',
  },
  {
    family: 'gpt-oss',
    provider: 'vllm',
    models: { primary: 'openai/gpt-oss-120b', secondary: 'openai/gpt-oss-20b' },
    field: 'reasoning',
  },
  {
    family: 'gpt-oss-raw',
    provider: 'vllm',
    models: { primary: 'openai/gpt-oss-20b', secondary: 'openai/gpt-oss-120b' },
    field: 'reasoning',
    profile: { contentReasoning: 'harmony' },
  },
];

const reasoningKeys = ['reasoning_content', 'reasoning', 'reasoning_details', 'thinking'];

for (const testCase of cases) {
  runConformance({
    name: `openai-compatible ${testCase.family} (${testCase.provider}/${testCase.models.primary})`,
    startServer: () => startOpenAIChatServer(testCase.family),
    createAdapter: (url, { model }) =>
      createOpenAICompatibleAdapter({
        provider: testCase.provider,
        model,
        baseURL: url,
        apiKey: 'test-key',
        profile: testCase.profile,
      }),
    models: testCase.models,
    hooks: {
      afterScenario(_scenario, { calls }) {
        // Reasoning goes back only in the family's own field, never in another one.
        for (const call of calls) {
          const messages = (call.body as { messages: Record<string, unknown>[] }).messages;
          for (const message of messages) {
            const used = Object.keys(message).filter((key) => reasoningKeys.includes(key));
            expect(used.every((key) => key === testCase.field)).toBe(true);
          }
        }
      },
    },
  });
}
