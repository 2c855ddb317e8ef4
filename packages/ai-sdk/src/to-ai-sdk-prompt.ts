/**
 * Episodic messages to an AI SDK prompt: the packed messages back to what the AI SDK
 * sent (each part's original wherever the packer kept it as it was), and an Episodic
 * agent's messages to the prompt of an AI SDK model (`fromAISDK`). Consecutive tool
 * results become one tool message, as the AI SDK groups them.
 */
import type { AssistantPart, ImagePart, Message, ProviderData, ToolMessage, ToolResultPart, UserPart } from '@episodic/core';
import type { ToolResultOrigin } from './from-ai-sdk-prompt.js';
import type { AISDKProviderOptions, LooseMessage, LoosePart, SpecVersion } from './ai-sdk-types.js';

/** What the conversion left out, for the adapter's warning events. */
export interface PromptWarnings {
  push(message: string): void;
}

/** The converted prompt, and where each Episodic message landed in it (-1: left out). */
export interface ConvertedMessages {
  prompt: LooseMessage[];
  indexOf: number[];
}

/** Converts Episodic messages (no leading system lines) to AI SDK prompt messages for a model of `version`. */
export function toAISDKPrompt(messages: readonly Message[], version: SpecVersion, warnings?: PromptWarnings): ConvertedMessages {
  const prompt: LooseMessage[] = [];
  const indexOf: number[] = [];
  let group: { origin: LooseMessage | undefined; message: LooseMessage } | undefined;
  for (const message of messages) {
    if (message.role !== 'tool') {
      group = undefined;
      const converted = toMessage(message, version, warnings);
      indexOf.push(converted ? prompt.length : -1);
      if (converted) prompt.push(converted);
      continue;
    }
    const origin = (message.aiSdk as ToolResultOrigin | undefined)?.message;
    // Results of one AI SDK tool message go back into one; others join the tool message before them.
    if (!group || (origin !== undefined && group.origin !== origin)) {
      group = { origin, message: { ...(origin ?? {}), role: 'tool', content: [] } };
      prompt.push(group.message);
    }
    indexOf.push(prompt.length - 1);
    (group.message.content as LoosePart[]).push(toolResult(message, version));
  }
  return { prompt, indexOf };
}

function toMessage(message: Message, version: SpecVersion, warnings?: PromptWarnings): LooseMessage | undefined {
  const original = message.aiSdk as LooseMessage | undefined;
  switch (message.role) {
    case 'system':
    case 'developer':
      return original ?? { role: 'system', content: message.content };
    case 'user':
      if (original) return original;
      return { role: 'user', content: typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content.map((part) => userPart(part, version)) };
    case 'assistant': {
      const content = message.content.flatMap((part) => assistantPart(part, warnings));
      if (content.length === 0) return undefined;
      return { ...(original ?? {}), role: 'assistant', content };
    }
    case 'summary':
      // The packer sends summaries as user messages; a summary line here is skipped, as adapters do.
      return undefined;
    default:
      return undefined;
  }
}

function userPart(part: UserPart, version: SpecVersion): LoosePart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  return { type: 'file', mediaType: part.mediaType ?? 'image/*', data: fileData(part, version) };
}

/** File data in the version's shape: v3 takes base64 or a URL, v4 a tagged object. */
function fileData(part: ImagePart | { data?: string; url?: string }, version: SpecVersion): unknown {
  if (version === 'v4') return part.url !== undefined ? { type: 'url', url: new URL(part.url) } : { type: 'data', data: part.data ?? '' };
  return part.url !== undefined ? new URL(part.url) : (part.data ?? '');
}

/** The AI SDK `providerOptions` a part's provider data carries, if any. */
function optionsOf(data: ProviderData | undefined): AISDKProviderOptions | undefined {
  const options = data?.providerOptions;
  return options && typeof options === 'object' ? (options as AISDKProviderOptions) : undefined;
}

/**
 * One assistant part back: its original with the provider options the packer left it
 * (a thought signature the packer took off at a user boundary stays off), or a new part.
 */
function assistantPart(part: AssistantPart, warnings?: PromptWarnings): LoosePart[] {
  const original = part.aiSdk as LoosePart | undefined;
  if (original) {
    if (part.type === 'provider-tool' || part.type === 'reasoning') return [original];
    const options = optionsOf(part.providerData);
    if (options === original.providerOptions) return [original];
    const { providerOptions: _dropped, ...rest } = original;
    return [options ? { ...rest, providerOptions: options } : rest];
  }
  const options = optionsOf(part.providerData);
  const withOptions = options ? { providerOptions: options } : {};
  switch (part.type) {
    case 'text': {
      const phase = options ? undefined : phaseOptions(part);
      return [{ type: 'text', text: part.text, ...(phase ? { providerOptions: phase } : withOptions) }];
    }
    case 'reasoning': {
      const reasoning = options ?? reasoningOptions(part);
      return [{ type: 'reasoning', text: part.text, ...(reasoning ? { providerOptions: reasoning } : {}) }];
    }
    case 'tool-call':
      return [{ type: 'tool-call', toolCallId: part.id, toolName: part.name, input: part.args ?? {}, ...withOptions }];
    case 'provider-tool': {
      const stored = part.providerData.part;
      if (stored && typeof stored === 'object') return [stored as LoosePart];
      warnings?.push(`a ${part.name} ${part.kind} of ${part.providerData.provider} has no AI SDK form and was left out`);
      return [];
    }
    case 'compaction':
      return compactionPart(part, warnings);
    default:
      return [];
  }
}

/**
 * A provider's compaction. One that still holds its block or item is this model's own
 * (Episodic's adapter made it, and `fromAISDK` on the same model shares its model id).
 * The AI SDK sends no such block as Episodic stores it: a readable summary (Anthropic's)
 * goes as text in its place, since core sends only what follows it (compaction-cut.ts),
 * or the model would read neither the summary nor the history it replaced. An opaque item
 * (OpenAI's) is left out: `fromAISDK` says it cannot send one (`sendsCompactionItems`), so
 * core sent Episodic's checkpoint summary of it, or the history it replaced, before it.
 * Another model's (its tag alone) is left out with a warning: core sends its summary or
 * the history itself.
 */
function compactionPart(part: Extract<AssistantPart, { type: 'compaction' }>, warnings?: PromptWarnings): LoosePart[] {
  const by = `${part.providerData.provider}/${part.providerData.model}`;
  const own = part.providerData.block !== undefined || part.providerData.item !== undefined;
  if (own && part.failed === true) return [];
  if (own && part.text) {
    warnings?.push(`a compaction by ${by} has no AI SDK form: its summary went as text in its place`);
    return [{ type: 'text', text: part.text }];
  }
  const instead = own ? ' (what it stands for went before it: its checkpoint summary or the messages it replaced)' : '';
  warnings?.push(`a compaction by ${by} cannot be sent through the AI SDK and was left out${instead}`);
  return [];
}

/**
 * The `phase` of a message from Episodic's own OpenAI Responses adapter (commentary or
 * final_answer), in the AI SDK's OpenAI options: gpt-5.3-codex and later want it back on
 * every assistant message, and the AI SDK sends `providerOptions.openai.phase` as it.
 */
function phaseOptions(part: Extract<AssistantPart, { type: 'text' }>): AISDKProviderOptions | undefined {
  const phase = part.providerData?.provider === 'openai' ? part.providerData.phase : undefined;
  return phase === 'commentary' || phase === 'final_answer' ? { openai: { phase } } : undefined;
}

/** Reasoning from Episodic's own Anthropic adapter (a signature, redacted data) in the AI SDK's Anthropic options. */
function reasoningOptions(part: Extract<AssistantPart, { type: 'reasoning' }>): AISDKProviderOptions | undefined {
  const data = part.providerData?.data;
  if (part.redacted && typeof data === 'string') return { anthropic: { redactedData: data } };
  return part.signature ? { anthropic: { signature: part.signature } } : undefined;
}

/** One tool result back: its original part, or the packer's shortened text in its place. */
function toolResult(message: ToolMessage, version: SpecVersion): LoosePart {
  const origin = message.aiSdk as ToolResultOrigin | undefined;
  if (origin && message.truncated !== true) return origin.part;
  const base: LoosePart = origin ? { ...origin.part } : { type: 'tool-result', toolCallId: message.toolCallId, toolName: message.toolName };
  base.output = toolOutput(message, version);
  return base;
}

function toolOutput(message: ToolMessage, version: SpecVersion): LoosePart {
  const { content } = message;
  if (typeof content === 'string') return { type: message.isError ? 'error-text' : 'text', value: content };
  return { type: 'content', value: content.map((part) => resultPart(part, version)) };
}

function resultPart(part: ToolResultPart, version: SpecVersion): LoosePart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const mediaType = part.mediaType ?? 'application/octet-stream';
  if (version === 'v4') return { type: 'file', mediaType, data: fileData(part, version) };
  if (part.url !== undefined) return { type: part.type === 'image' ? 'image-url' : 'file-url', url: part.url };
  return { type: part.type === 'image' ? 'image-data' : 'file-data', data: part.data ?? '', mediaType };
}
