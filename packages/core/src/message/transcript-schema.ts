/**
 * zod schemas for transcript format v1 (see DESIGN.md). Objects are loose: unknown
 * fields are kept so that a read/write round trip loses nothing.
 */
import { z } from 'zod';

const ProviderData = z.looseObject({ provider: z.string(), model: z.string() });

export const TextPart = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  providerData: ProviderData.optional(),
});
export const ReasoningPart = z.looseObject({
  type: z.literal('reasoning'),
  text: z.string(),
  signature: z.string().optional(),
  redacted: z.boolean().optional(),
  providerData: ProviderData.optional(),
});
export const ToolCallPart = z.looseObject({
  type: z.literal('tool-call'),
  id: z.string().min(1),
  name: z.string().min(1),
  args: z.unknown(),
  providerData: ProviderData.optional(),
});
export const ImagePart = z.looseObject({
  type: z.literal('image'),
  data: z.string().optional(),
  url: z.string().optional(),
  mediaType: z.string().optional(),
});

export const AssistantPart = z.discriminatedUnion('type', [TextPart, ReasoningPart, ToolCallPart]);
export const UserPart = z.discriminatedUnion('type', [TextPart, ImagePart]);

const ModelRef = z.looseObject({ provider: z.string(), id: z.string() });
const Usage = z.looseObject({
  inputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative().optional(),
  cacheWriteTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative(),
  reasoningTokens: z.number().int().nonnegative().optional(),
  costUsd: z.number().nonnegative().optional(),
});

export const SystemMessage = z.looseObject({ role: z.literal('system'), content: z.string() });
export const UserMessage = z.looseObject({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(UserPart)]),
});
export const AssistantMessage = z.looseObject({
  role: z.literal('assistant'),
  content: z.array(AssistantPart),
  model: ModelRef.optional(),
  usage: Usage.optional(),
});
/**
 * How a call that needed approval was decided (optional; added after v1 without a
 * version change: v1 files have no such field and load as before, and v1 readers
 * keep it as an unknown field). The decision is also what the model read: a
 * rejected call's result is an error naming the reason.
 */
export const ToolApproval = z.looseObject({
  decision: z.enum(['approved', 'rejected']),
  by: z.enum(['person', 'policy']),
  note: z.string().optional(),
  reason: z.string().optional(),
});
/**
 * The session an agent tool ran its sub-agent in, and that run's usage (optional,
 * added after v1 like `approval`): session totals add it to the model calls'.
 */
export const SubSessionReference = z.looseObject({
  id: z.string().min(1),
  calls: z.number().int().nonnegative(),
  usage: Usage,
});
export const ToolMessage = z.looseObject({
  role: z.literal('tool'),
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  content: z.string(),
  isError: z.boolean().optional(),
  approval: ToolApproval.optional(),
  subSession: SubSessionReference.optional(),
  /** True on an accepted structured final answer's result (optional, added after v1): the episode ended there. */
  finalAnswer: z.boolean().optional(),
});

/** Schemas by role; the role is checked first so errors name the right shape. */
export const MessageSchemas = {
  system: SystemMessage,
  user: UserMessage,
  assistant: AssistantMessage,
  tool: ToolMessage,
} as const;

export const Message = z.discriminatedUnion('role', [SystemMessage, UserMessage, AssistantMessage, ToolMessage]);
