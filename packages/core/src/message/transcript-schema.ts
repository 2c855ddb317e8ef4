/**
 * zod schemas for transcript format v1.1, a strict superset of v1 (see docs/architecture.md
 * and the README). Objects are loose: unknown fields are kept so that a read/write
 * round trip loses nothing. What only v1.1 has is listed in `transcript-version.ts`.
 * Each schema has the name of its interface in `message.ts`; the check at the bottom
 * fails to compile when the two stop describing the same data. The schemas are built
 * by `transcriptSchemas()` on its first call, so importing core loads no zod (see
 * support/zod-loader.ts); the builders below go in the order the schemas need each other.
 */
import type { z } from 'zod/v4';
import { lazily, type ZodModule } from '../support/zod-loader.js';
import type { Agree, Proven } from '../support/schema-agreement.js';
import type * as Types from './message.js';
import type { InputTransformation as InputTransformationType } from './input-transformation.js';

type Z = ZodModule['z'];

/** Text, reasoning, tool-call, image and file parts. */
function contentParts(z: Z) {
  const ProviderData = z.looseObject({
    provider: z.string(),
    model: z.string(),
    reasoningFields: z.array(z.string()).optional(),
  });
  const TextPart = z.looseObject({
    type: z.literal('text'),
    text: z.string(),
    providerData: ProviderData.optional(),
  });
  const ReasoningPart = z.looseObject({
    type: z.literal('reasoning'),
    text: z.string(),
    signature: z.string().optional(),
    redacted: z.boolean().optional(),
    providerData: ProviderData.optional(),
    tokens: z.number().int().nonnegative().optional(),
  });
  const ToolCallPart = z.looseObject({
    type: z.literal('tool-call'),
    id: z.string().min(1),
    name: z.string().min(1),
    args: z.unknown(),
    providerData: ProviderData.optional(),
  });
  const ImagePart = z.looseObject({
    type: z.literal('image'),
    data: z.string().optional(),
    url: z.string().optional(),
    mediaType: z.string().optional(),
  });
  /** v1.1: a file in a tool result, by base64 data or URL. */
  const FilePart = z
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
  return { ProviderData, TextPart, ReasoningPart, ToolCallPart, ImagePart, FilePart };
}

/** What providers add (v1.1), and the parts each role may hold. */
function providerParts(z: Z, parts: ReturnType<typeof contentParts>) {
  const { ProviderData, TextPart, ReasoningPart, ToolCallPart, ImagePart, FilePart } = parts;
  /** v1.1: a tool the provider ran itself; its wire form rides opaque in `providerData`. */
  const ProviderToolPart = z.looseObject({
    type: z.literal('provider-tool'),
    name: z.string().min(1),
    kind: z.enum(['call', 'result']),
    id: z.string().optional(),
    text: z.string().optional(),
    providerData: ProviderData,
  });
  /** v1.1: a provider's server-side compaction, opaque in `providerData`. */
  const CompactionPart = z.looseObject({
    type: z.literal('compaction'),
    text: z.string().optional(),
    tokens: z.number().int().nonnegative().optional(),
    failed: z.boolean().optional(),
    userMessagesKept: z.number().int().nonnegative().optional(),
    summarizedMessages: z.number().int().nonnegative().optional(),
    providerData: ProviderData,
  });
  /** v1.1: what a provider's context editing removed before the model read the call. */
  const AppliedContextEdit = z.looseObject({
    type: z.string().min(1),
    clearedInputTokens: z.number().int().nonnegative(),
    clearedToolUses: z.number().int().nonnegative().optional(),
    clearedThinkingTurns: z.number().int().nonnegative().optional(),
    toolCallIds: z.array(z.string()).optional(),
  });
  const AssistantPart = z.discriminatedUnion('type', [
    TextPart,
    ReasoningPart,
    ToolCallPart,
    ProviderToolPart,
    CompactionPart,
  ]);
  const UserPart = z.discriminatedUnion('type', [TextPart, ImagePart]);
  /** v1.1: the parts of a tool result that is more than text. */
  const ToolResultPart = z.discriminatedUnion('type', [TextPart, ImagePart, FilePart]);
  return { ProviderToolPart, CompactionPart, AppliedContextEdit, AssistantPart, UserPart, ToolResultPart };
}

/** Model references, usage, approvals and sub-sessions. */
function records(z: Z) {
  const ModelRef = z.looseObject({ provider: z.string(), id: z.string() });
  const InputTransformation = z.looseObject({ type: z.string(), path: z.string(), reason: z.string() });
  const Usage = z.looseObject({
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
  /** A model of a fallback chain that failed a step (see `StepFallback`). */
  const FailedModelCall = z.looseObject({
    model: ModelRef,
    code: z.string(),
    reason: z.string(),
    status: z.number().int().optional(),
    message: z.string(),
  });
  /**
   * How a call that needed approval was decided (optional; added after v1 without a
   * version change: v1 files have no such field and load as before, and v1 readers
   * keep it as an unknown field). The decision is also what the model read: a
   * rejected call's result is an error naming the reason.
   */
  const ToolApproval = z.looseObject({
    decision: z.enum(['approved', 'rejected']),
    by: z.enum(['person', 'policy']),
    note: z.string().optional(),
    reason: z.string().optional(),
  });
  /**
   * The session an agent tool ran its sub-agent in, and that run's usage (optional,
   * added after v1 like `approval`): session totals add it to the model calls'.
   */
  const SubSessionReference = z.looseObject({
    id: z.string().min(1),
    calls: z.number().int().nonnegative(),
    usage: Usage,
  });
  return { ModelRef, InputTransformation, Usage, FailedModelCall, ToolApproval, SubSessionReference };
}

/** Instructions and user messages. */
function inputMessages(z: Z, { UserPart }: ReturnType<typeof providerParts>) {
  const SystemMessage = z.looseObject({ role: z.literal('system'), content: z.string() });
  /** v1.1: developer instructions, anywhere. */
  const DeveloperMessage = z.looseObject({ role: z.literal('developer'), content: z.string() });
  const UserMessage = z.looseObject({
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
  return { SystemMessage, DeveloperMessage, UserMessage };
}

type Earlier = ReturnType<typeof providerParts> & ReturnType<typeof records> & ReturnType<typeof inputMessages>;

/** Assistant, tool and summary messages, and any message. */
function outputMessages(z: Z, earlier: Earlier) {
  const { AppliedContextEdit, AssistantPart, ToolResultPart, ModelRef, Usage, FailedModelCall, ToolApproval } = earlier;
  const { SubSessionReference, SystemMessage, DeveloperMessage, UserMessage } = earlier;
  const AssistantMessage = z.looseObject({
    role: z.literal('assistant'),
    content: z.array(AssistantPart),
    model: ModelRef.optional(),
    usage: Usage.optional(),
    contextEdits: z.array(AppliedContextEdit).optional(),
    /** Set on a step a fallback model answered (added like `approval`, without a version change). */
    fallback: z.looseObject({ failed: z.array(FailedModelCall) }).optional(),
  });
  const ToolMessage = z.looseObject({
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
  const SummaryMessage = z.looseObject({
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
  const MessageSchemas = {
    system: SystemMessage,
    developer: DeveloperMessage,
    user: UserMessage,
    assistant: AssistantMessage,
    tool: ToolMessage,
    summary: SummaryMessage,
  } as const;
  const Message = z.discriminatedUnion('role', [
    SystemMessage,
    DeveloperMessage,
    UserMessage,
    AssistantMessage,
    ToolMessage,
    SummaryMessage,
  ]);
  return { AssistantMessage, ToolMessage, SummaryMessage, MessageSchemas, Message };
}

/** Every schema of the format, by name. */
function build(z: Z) {
  const content = contentParts(z);
  const provider = providerParts(z, content);
  const record = records(z);
  const input = inputMessages(z, provider);
  return { ...content, ...provider, ...record, ...input, ...outputMessages(z, { ...provider, ...record, ...input }) };
}

/** The schemas of transcript format v1.1, by name; built with zod on the first call. */
export type TranscriptSchemas = ReturnType<typeof build>;

/** The transcript schemas, built on first use (see support/zod-loader.ts). */
export const transcriptSchemas = lazily(build);

// The interfaces of message.ts and these schemas describe the same data (checked when compiling).
type _TranscriptTypesAgree = [
  Proven<Agree<Types.ProviderData, z.output<TranscriptSchemas['ProviderData']>>>,
  Proven<Agree<Types.TextPart, z.output<TranscriptSchemas['TextPart']>>>,
  Proven<Agree<Types.ReasoningPart, z.output<TranscriptSchemas['ReasoningPart']>>>,
  Proven<Agree<Types.ToolCallPart, z.output<TranscriptSchemas['ToolCallPart']>>>,
  Proven<Agree<Types.ImagePart, z.output<TranscriptSchemas['ImagePart']>>>,
  Proven<Agree<Types.CompactionPart, z.output<TranscriptSchemas['CompactionPart']>>>,
  Proven<Agree<Types.AppliedContextEdit, z.output<TranscriptSchemas['AppliedContextEdit']>>>,
  Proven<Agree<Types.ModelRef, z.output<TranscriptSchemas['ModelRef']>>>,
  Proven<Agree<InputTransformationType, z.output<TranscriptSchemas['InputTransformation']>>>,
  Proven<Agree<Types.Usage, z.output<TranscriptSchemas['Usage']>>>,
  Proven<Agree<Types.SystemMessage, z.output<TranscriptSchemas['SystemMessage']>>>,
  Proven<Agree<Types.DeveloperMessage, z.output<TranscriptSchemas['DeveloperMessage']>>>,
  Proven<Agree<Types.UserMessage, z.output<TranscriptSchemas['UserMessage']>>>,
  Proven<Agree<Types.AssistantMessage, z.output<TranscriptSchemas['AssistantMessage']>>>,
  Proven<Agree<Types.ToolMessage, z.output<TranscriptSchemas['ToolMessage']>>>,
  Proven<Agree<Types.SummaryMessage, z.output<TranscriptSchemas['SummaryMessage']>>>,
  Proven<Agree<Types.Message, z.output<TranscriptSchemas['Message']>>>,
];
