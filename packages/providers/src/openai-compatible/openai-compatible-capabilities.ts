/**
 * The capability flags of an OpenAI-compatible family, resolved once from its
 * profile: how to read reasoning from the stream, how to send it back, and which
 * request fields to add. The adapter reads only these flags; no model-name checks.
 */
import { type ReasoningField } from '@episodic/core';
import { createHarmonyParser, createLeadingReasoningDetector, createTagSplitter } from '@episodic/core/reasoning';
import type { ChatReasoningWire } from '../openai-chat/convert-to-openai-chat-messages.js';
import type { ChatReasoningReader } from '../openai-chat/openai-chat-stream.js';
import type { CompatibleProfile, EffortParameter } from '../profiles/openai-compatible.js';

/** Everything the compatible adapter needs to know about a family. */
export interface CompatibleCapabilities {
  reader: ChatReasoningReader;
  wire: ChatReasoningWire;
  requestFlags: Record<string, unknown>;
  effortParameter: EffortParameter;
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
}

/** Stream fields read for each declared reasoning field, most likely first. */
const readFields: Readonly<Record<ReasoningField, readonly string[]>> = {
  reasoning_content: ['reasoning_content', 'reasoning'],
  reasoning: ['reasoning', 'reasoning_content'],
  reasoning_details: ['reasoning'],
  thinking: ['thinking', 'reasoning'],
  'think-tags': [],
  none: [],
};

const contentSplitters = {
  'think-tags': () => createTagSplitter(),
  harmony: () => createHarmonyParser(),
  auto: () => createLeadingReasoningDetector(),
  none: undefined,
} as const;

/** Resolves a profile's capability flags. */
export function resolveCompatibleCapabilities(profile: CompatibleProfile): CompatibleCapabilities {
  const splitter = contentSplitters[profile.contentReasoning ?? 'auto'];
  return {
    reader: {
      fields: readFields[profile.reasoningField],
      details: profile.sendReasoningAs === 'reasoning_details',
      ...(splitter ? { contentSplitter: splitter } : {}),
    },
    wire: {
      sendAs: profile.sendReasoningAs,
      requiredOnToolCalls: profile.reasoningRequiredOnToolCalls === true,
      onLaterAssistants: profile.reasoningOnLaterAssistants === true,
      untilFinal: profile.reasoningUntilFinal === true,
    },
    requestFlags: profile.requestFlags ?? {},
    effortParameter: profile.effortParameter,
    maxTokensField: profile.maxTokensField,
  };
}
