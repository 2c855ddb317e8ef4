/**
 * zod schemas for transcript format v1.1, a strict superset of v1 (see docs/architecture.md
 * and the README). Objects are loose: unknown fields are kept so that a read/write
 * round trip loses nothing. What only v1.1 has is listed in `transcript-version.ts`.
 * Each schema has the name of its interface in `message.ts`; the check at the bottom
 * fails to compile when the two stop describing the same data.
 */
import { z } from 'zod/v4';
import type { Agree, Proven } from '../support/schema-agreement.js';
import type * as Types from './message.js';
import type { InputTransformation as InputTransformationType } from './input-transformation.js';

export const ProviderData = z.looseObject({
  provider: z.string(),
  model: z.string(),
  reasoningFields: z.array(z.string()).optional(),
});

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
  tokens: z.number().int().nonnegative().optional(),
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

/** v1.1: a file in a tool result, by base64 data or URL. */
export const FilePart = z
  .looseObject({
    type: z.literal('file'),
    data: z.string().optional(),
    url: z.string().optional(),
    mediaType: z.string().min(1),
    filename: z.string().optional(),
  })
  .refine((part) => part.data !== undefined || part.url !== undefined, {
    message: 'needs data (base64) or url',
    path: ['data'],
  });
/** v1.1: a tool the provider ran itself; its wire form rides opaque in `providerData`. */
export const ProviderToolPart = z.looseObject({
  type: z.literal('provider-tool'),
  name: z.string().min(1),
  kind: z.enum(['call', 'result']),
  id: z.string().optional(),
  text: z.string().optional(),
  providerData: ProviderData,
});

/** v1.1: a provider's server-side compaction, opaque in `providerData`. */
export const CompactionPart = z.looseObject({
  type: z.literal('compaction'),
  text: z.string().optional(),
  tokens: z.number().int().nonnegative().optional(),
  failed: z.boolean().optional(),
  userMessagesKept: z.number().int().nonnegative().optional(),
  summarizedMessages: z.number().int().nonnegative().optional(),
  providerData: ProviderData,
});
/** v1.1: what a provider's context editing removed before the model read the call. */
export const AppliedContextEdit = z.looseObject({
  type: z.string().min(1),
  clearedInputTokens: z.number().int().nonnegative(),
  clearedToolUses: z.number().int().nonnegative().optional(),
  clearedThinkingTurns: z.number().int().nonnegative().optional(),
  toolCallIds: z.array(z.string()).optional(),
});

export const AssistantPart = z.discriminatedUnion('type', [
  TextPart,
  ReasoningPart,
  ToolCallPart,
  ProviderToolPart,
  CompactionPart,
]);
export const UserPart = z.discriminatedUnion('type', [TextPart, ImagePart]);
/** v1.1: the parts of a tool result that is more than text. */
export const ToolResultPart = z.discriminatedUnion('type', [TextPart, ImagePart, FilePart]);

export const ModelRef = z.looseObject({ provider: z.string(), id: z.string() });
export const InputTransformation = z.looseObject({ type: z.string(), path: z.string(), reason: z.string() });
export const Usage = z.looseObject({
  inputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative().optional(),
  cacheWriteTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative(),
  reasoningTokens: z.number().int().nonnegative().optional(),
  costUsd: z.number().nonnegative().optional(),
  compactionInputTokens: z.number().int().nonnegative().optional(),
  compactionOutputTokens: z.number().int().nonnegative().optional(),
  inputTransformations: z.array(InputTransformation).optional(),
});

export const SystemMessage = z.looseObject({ role: z.literal('system'), content: z.string() });
/** v1.1: developer instructions, anywhere. */
export const DeveloperMessage = z.looseObject({ role: z.literal('developer'), content: z.string() });
export const UserMessage = z.looseObject({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(UserPart)]),
  /** v1.1: context no person typed; it does not start an episode. */
  injected: z.boolean().optional(),
  /** v1.1: a recorded agent's context compaction. */
  compaction: z
    .looseObject({
      keptMessages: z.number().int().nonnegative(),
      tokensBefore: z.number().int().nonnegative().optional(),
    })
    .optional(),
});
/** A model of a fallback chain that failed a step (see `StepFallback`). */
export const FailedModelCall = z.looseObject({
  model: ModelRef,
  code: z.string(),
  reason: z.string(),
  status: z.number().int().optional(),
  message: z.string(),
});
export const AssistantMessage = z.looseObject({
  role: z.literal('assistant'),
  content: z.array(AssistantPart),
  model: ModelRef.optional(),
  usage: Usage.optional(),
  contextEdits: z.array(AppliedContextEdit).optional(),
  /** Set on a step a fallback model answered (added like `approval`, without a version change). */
  fallback: z.looseObject({ failed: z.array(FailedModelCall) }).optional(),
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
  content: z.union([z.string(), z.array(ToolResultPart)]),
  isError: z.boolean().optional(),
  approval: ToolApproval.optional(),
  subSession: SubSessionReference.optional(),
  /** True on an accepted structured final answer's result (v1.1): the episode ended there. */
  finalAnswer: z.boolean().optional(),
});

/**
 * A summary of evicted episodes written by the agent loop (a v1 addition: files
 * without summary lines are unchanged, and readers before it refuse the role).
 */
export const SummaryMessage = z.looseObject({
  role: z.literal('summary'),
  content: z.string(),
  episodes: z
    .object({ from: z.number().int().nonnegative(), to: z.number().int().nonnegative() })
    .refine((range) => range.to > range.from, { message: 'must cover at least one episode (to > from)' }),
  model: ModelRef.optional(),
  usage: Usage.optional(),
  /** v1.1: the text summary of an opaque compaction (a portable checkpoint). */
  checkpoint: z.looseObject({ message: z.number().int().nonnegative(), id: z.string().optional() }).optional(),
});

/** Schemas by role; the role is checked first so errors name the right shape. */
export const MessageSchemas = {
  system: SystemMessage,
  developer: DeveloperMessage,
  user: UserMessage,
  assistant: AssistantMessage,
  tool: ToolMessage,
  summary: SummaryMessage,
} as const;

export const Message = z.discriminatedUnion('role', [
  SystemMessage,
  DeveloperMessage,
  UserMessage,
  AssistantMessage,
  ToolMessage,
  SummaryMessage,
]);

// The interfaces of message.ts and these schemas describe the same data (checked when compiling).
type _TranscriptTypesAgree = [
  Proven<Agree<Types.ProviderData, z.output<typeof ProviderData>>>,
  Proven<Agree<Types.TextPart, z.output<typeof TextPart>>>,
  Proven<Agree<Types.ReasoningPart, z.output<typeof ReasoningPart>>>,
  Proven<Agree<Types.ToolCallPart, z.output<typeof ToolCallPart>>>,
  Proven<Agree<Types.ImagePart, z.output<typeof ImagePart>>>,
  Proven<Agree<Types.CompactionPart, z.output<typeof CompactionPart>>>,
  Proven<Agree<Types.AppliedContextEdit, z.output<typeof AppliedContextEdit>>>,
  Proven<Agree<Types.ModelRef, z.output<typeof ModelRef>>>,
  Proven<Agree<InputTransformationType, z.output<typeof InputTransformation>>>,
  Proven<Agree<Types.Usage, z.output<typeof Usage>>>,
  Proven<Agree<Types.SystemMessage, z.output<typeof SystemMessage>>>,
  Proven<Agree<Types.DeveloperMessage, z.output<typeof DeveloperMessage>>>,
  Proven<Agree<Types.UserMessage, z.output<typeof UserMessage>>>,
  Proven<Agree<Types.AssistantMessage, z.output<typeof AssistantMessage>>>,
  Proven<Agree<Types.ToolMessage, z.output<typeof ToolMessage>>>,
  Proven<Agree<Types.SummaryMessage, z.output<typeof SummaryMessage>>>,
  Proven<Agree<Types.Message, z.output<typeof Message>>>,
];
