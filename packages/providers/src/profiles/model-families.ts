/**
 * Reasoning model families as data, matched by model id on any OpenAI-compatible
 * host: which reasoning a family needs back, whatever host serves it. A family
 * row says what the model refuses; the host row (`compatible-hosts.ts`) says in
 * which field and with which flags. Pass your own rows in front of these to
 * override one (`createOpenAICompatibleAdapter({ families })`).
 */
import type { ReasoningField, Retention } from '@episodic/core';

/** One model family. */
export interface ModelFamily {
  /** Short name, used by host rows' `familyOverrides` and in docs. */
  name: string;
  /** RegExp source matched, ignoring case, against the normalised model id (see {@link normalizeModelId}). */
  pattern: string;
  /** Which reasoning goes back across episodes. */
  retention: Retention;
  /** The model refuses an assistant tool-call message without reasoning (a 400). */
  reasoningRequiredOnToolCalls: boolean;
  /** `false`: the model refuses reasoning sent back, so none is. */
  sendsReasoningBack: boolean;
  /** The family's own field, used on a host nobody described. */
  nativeField: ReasoningField;
  /** A field the family needs whatever the host (gpt-oss: `reasoning`). */
  field?: ReasoningField;
  /** Drop reasoning before the latest final answer (Harmony). */
  reasoningUntilFinal?: boolean;
  contextWindow: number;
  maxOutputTokens: number;
  /** Where the row's facts come from. */
  source: string;
  /** Facts nobody here could confirm; the row takes the value that avoids a 400. */
  unverified?: string;
}

const strict = {
  reasoningRequiredOnToolCalls: true,
  sendsReasoningBack: true,
  nativeField: 'reasoning_content',
} as const;

/** Every built-in family; the first match wins. */
export const modelFamilies: readonly ModelFamily[] = [
  {
    ...strict,
    name: 'deepseek-thinking',
    pattern: 'deepseek-(v3\\.[2-9]|v4|reasoner)([-.].*)?',
    retention: 'tool-episodes',
    contextWindow: 128_000,
    maxOutputTokens: 64_000,
    source:
      'https://api-docs.deepseek.com/guides/thinking_mode#tool-calls; recorded 400 "The `reasoning_content` in the ' +
      'thinking mode must be passed back to the API." (PROVIDERS.md; through OpenCode Zen: ' +
      'github.com/anomalyco/opencode/issues/28890)',
  },
  {
    ...strict,
    name: 'deepseek-r1',
    pattern: 'deepseek-r1([-.].*)?',
    retention: 'episode',
    contextWindow: 65_536,
    maxOutputTokens: 32_768,
    source: 'replay-cache seed (strict model pattern deepseek-r1 on SiliconFlow, Nebius, DeepInfra, ...)',
    unverified:
      'whether third-party hosts refuse an R1 tool-call message without reasoning (sent in the current episode); ' +
      "DeepSeek's own API refuses it (its own row)",
  },
  {
    ...strict,
    name: 'kimi-k2',
    pattern: 'kimi-k2([-.].*)?',
    retention: 'episode',
    contextWindow: 262_144,
    maxOutputTokens: 65_536,
    source:
      'recorded 400 "thinking is enabled but reasoning_content is missing in assistant tool call message at index N" ' +
      '(PROVIDERS.md); https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model',
  },
  {
    ...strict,
    name: 'glm-thinking',
    pattern: 'glm-(4\\.[5-9]|[5-9])([-.].*)?|glm-z1.*|glm.*think.*',
    retention: 'episode',
    contextWindow: 131_072,
    maxOutputTokens: 32_768,
    source: 'https://docs.z.ai/guides/capabilities/thinking-mode (required with tools, PROVIDERS.md)',
  },
  {
    ...strict,
    name: 'qwen-thinking',
    pattern: 'qwq.*|qwen3.*-thinking.*|qwen.*think.*',
    retention: 'episode',
    contextWindow: 131_072,
    maxOutputTokens: 32_768,
    source: 'replay-cache seed (strict model patterns qwq, qwen.*think)',
    unverified: 'the refusal itself (reasoning sent on current-episode tool-call messages)',
  },
  {
    ...strict,
    name: 'mimo',
    pattern: 'mimo[-.]?v\\d.*',
    // Every later turn's tool-call messages must carry it, not only the current episode's.
    retention: 'tool-episodes',
    contextWindow: 262_144,
    maxOutputTokens: 65_536,
    source:
      'https://platform.xiaomimimo.com/docs/en-US/usage-guide/passing-back-reasoning_content (notice quoted in ' +
      'github.com/VicBilibily/GCMP/issues/171); recorded 400 in github.com/decolua/9router/issues/1210',
  },
  {
    name: 'gpt-oss',
    pattern: 'gpt-oss-.*',
    retention: 'episode',
    reasoningRequiredOnToolCalls: false,
    sendsReasoningBack: true,
    nativeField: 'reasoning',
    field: 'reasoning',
    reasoningUntilFinal: true,
    contextWindow: 131_072,
    maxOutputTokens: 32_768,
    source: 'https://cookbook.openai.com/articles/openai-harmony (analysis kept until a final message)',
  },
];

/**
 * The model id as families see it: lower case, without a vendor path
 * (`deepseek-ai/`, `accounts/fireworks/models/`, `Pro/`), without an Ollama tag
 * (`:8b`), and with Fireworks' `p` between version digits read as a dot
 * (`deepseek-v3p2` is `deepseek-v3.2`).
 */
export function normalizeModelId(model: string): string {
  const base = model.toLowerCase().split('/').pop() ?? '';
  return base.replace(/:.*$/, '').replace(/(\d)p(\d)/g, '$1.$2');
}

/** The first family of `families` whose pattern matches `model`. */
export function findModelFamily(model: string, families: readonly ModelFamily[] = modelFamilies): ModelFamily | undefined {
  const id = normalizeModelId(model);
  return families.find((family) => new RegExp(`^(?:${family.pattern})$`, 'i').test(id));
}
