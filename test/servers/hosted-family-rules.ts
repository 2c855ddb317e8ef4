/**
 * What a loopback chat server refuses when one host serves one reasoning model
 * family: the family's refusal (its real error text where one was recorded) in
 * the field the host takes, plus the host's own rules (fields it rejects, the
 * OpenCode Zen rule for later assistant messages). Written from the sources, not
 * from the SDK's tables, so a wrong table row meets a refusal here.
 */
import type { ChatFamilyRule, ChatRejection } from './openai-chat-rules.js';

/** The families the matrix runs, by a model id each is served under. */
export const hostedFamilies = {
  'deepseek-thinking': 'deepseek-ai/DeepSeek-V3.2',
  'deepseek-v4': 'deepseek-v4-flash-free',
  'deepseek-r1': 'deepseek-ai/DeepSeek-R1-0528',
  'kimi-k2': 'moonshotai/Kimi-K2-Thinking',
  'glm-thinking': 'zai-org/GLM-4.6',
  'qwen-thinking': 'Qwen/Qwen3-235B-A22B-Thinking-2507',
  qwq: 'Qwen/QwQ-32B',
  mimo: 'XiaomiMiMo/MiMo-V2-Flash',
  'gpt-oss': 'openai/gpt-oss-120b',
} as const;

export type HostedFamily = keyof typeof hostedFamilies;

/** What each family refuses: a tool-call message without reasoning, with this text (undefined: refuses nothing). */
const familyRefusals: Readonly<Record<HostedFamily, ((index: number) => ChatRejection) | undefined>> = {
  'deepseek-thinking': () => deepseekRefusal,
  'deepseek-v4': () => deepseekRefusal,
  // Unverified on third-party hosts: the server refuses, so the safe default is tested.
  'deepseek-r1': () => deepseekRefusal,
  'kimi-k2': (index) => ({
    status: 400,
    message: `thinking is enabled but reasoning_content is missing in assistant tool call message at index ${index}`,
  }),
  // Wording unverified.
  'glm-thinking': (index) => ({ status: 400, message: `messages[${index}]: reasoning_content is required with tool calls` }),
  'qwen-thinking': (index) => ({ status: 400, message: `messages[${index}]: reasoning_content is required (unverified)` }),
  qwq: (index) => ({ status: 400, message: `messages[${index}]: reasoning_content is required (unverified)` }),
  // Recorded (github.com/decolua/9router/issues/1210): the text rides in `param`.
  mimo: () => ({
    status: 400,
    message: 'Param Incorrect',
    param: 'The reasoning_content in the thinking mode must be passed back to the API.',
    code: '400',
  }),
  'gpt-oss': undefined,
};

const deepseekRefusal: ChatRejection = {
  status: 400,
  message: 'The `reasoning_content` in the thinking mode must be passed back to the API.',
  code: 'invalid_request_error',
};

/** What a host streams reasoning in, takes it back in, and rejects. */
interface HostBehaviour {
  streams: ChatFamilyRule['stream'];
  takes: string;
  rejects?: string;
  /** R1 arrives as `<think>` in content on this host. */
  r1InContent?: boolean;
  laterAssistants?: boolean;
  /** Errors of the upstream come wrapped (OpenCode Zen: "Error from provider (DeepSeek): ..."). */
  wrap?: (message: string) => string;
}

export const hostBehaviours = {
  siliconflow: { streams: 'reasoning_content', takes: 'reasoning_content' },
  deepinfra: { streams: 'reasoning_content', takes: 'reasoning_content' },
  together: { streams: 'reasoning', takes: 'reasoning_content', r1InContent: true },
  fireworks: { streams: 'reasoning_content', takes: 'reasoning_content' },
  nebius: { streams: 'reasoning_content', takes: 'reasoning_content' },
  sambanova: { streams: 'reasoning_content', takes: 'reasoning_content', r1InContent: true },
  opencode: {
    streams: 'reasoning_content',
    takes: 'reasoning_content',
    laterAssistants: true,
    wrap: (message: string) => `Error from provider (DeepSeek): ${message}`,
  },
  xiaomi: { streams: 'reasoning_content', takes: 'reasoning_content' },
  venice: { streams: 'reasoning_content', takes: 'reasoning_content' },
  longcat: { streams: 'reasoning_content', takes: 'reasoning_content' },
  cerebras: { streams: 'reasoning', takes: 'reasoning', rejects: 'reasoning_content' },
  vllm: { streams: 'reasoning', takes: 'reasoning' },
  // A host nobody described, serving the family's own wire.
  'acme-cloud': { streams: 'reasoning_content', takes: 'reasoning_content' },
} as const satisfies Record<string, HostBehaviour>;

export type HostedHost = keyof typeof hostBehaviours;

/** The server rule for `family` on `host`. */
export function hostedFamilyRule(family: HostedFamily, host: HostedHost): ChatFamilyRule {
  const behaviour: HostBehaviour = hostBehaviours[host];
  const wrap = behaviour.wrap ?? ((message: string) => message);
  const refusal = familyRefusals[family];
  const field = family === 'gpt-oss' ? 'reasoning' : behaviour.takes;
  const wrapped = (index: number): ChatRejection => {
    const base = refusal ? refusal(index) : deepseekRefusal;
    return { ...base, message: wrap(base.message) };
  };
  const stream = family === 'deepseek-r1' && behaviour.r1InContent ? 'think-tags' : family === 'gpt-oss' ? 'reasoning' : behaviour.streams;
  return {
    stream,
    ...(refusal ? { requiredOnToolCalls: { field, error: wrapped } } : {}),
    ...(behaviour.laterAssistants && refusal ? { requiredOnLaterAssistants: { field, error: wrapped } } : {}),
    ...(behaviour.rejects
      ? {
          rejectedFields: {
            [behaviour.rejects]: (index: number) => ({
              status: 400,
              message: `messages.${index}.assistant.${behaviour.rejects}: property '${behaviour.rejects}' is unsupported`,
            }),
          },
        }
      : {}),
  };
}
