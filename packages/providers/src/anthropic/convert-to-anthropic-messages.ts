/**
 * Neutral messages to Anthropic Messages API turns
 * (https://docs.claude.com/en/api/messages, thinking blocks:
 * https://docs.claude.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks).
 *
 * Reasoning goes back as `thinking` / `redacted_thinking` blocks, verbatim and in
 * order, only when it carries its signature and (for models whose signatures are
 * bound to their prefix) only when the prefix it was produced after is unchanged.
 * Other models' reasoning is already gone (the adapter strips it first, with
 * core's one rule). Tool results become `tool_result` blocks of a user turn.
 * System and developer lines after the first other message go in place as
 * `role: "system"` messages on the models that take them (the prefix before them, and
 * the thinking bound to it, stay as they were); elsewhere they join the top-level
 * `system` (https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages).
 */
import type {
  BetaContentBlockParam as ContentBlockParam,
  BetaImageBlockParam as ImageBlockParam,
  BetaMessageParam as MessageParam,
  BetaTextBlockParam as TextBlockParam,
  BetaTool as Tool,
  BetaToolResultBlockParam as ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import {
  type AssistantMessage,
  isInstruction,
  type Message,
  type ModelRequest,
  type ReasoningPart,
  type TextPart,
  type ToolMessage,
  toolResultText,
  type UserMessage,
} from '@episodic/core';
import type { AnthropicModelProfile } from '../profiles/anthropic.js';
import { stableHash } from '../shared/stable-hash.js';
import { normalizeToolCallId } from '../shared/tool-call-id.js';

export interface AnthropicConversion {
  system: TextBlockParam[] | undefined;
  messages: MessageParam[];
  /** Reasoning parts not sent: unsigned, or with a changed prefix. */
  droppedReasoning: number;
  /** Reasoning parts of the last assistant message that were not sent. */
  lastAssistantDroppedReasoning: number;
  /** For each input message, the wire turn it went into (-1 when it sent nothing, or is a system or developer line). */
  wireIndexOf: number[];
  /** Mid-session system and developer lines folded into the top-level `system` (none where they can go in place). */
  foldedMidSession: number;
  /** Reasoning parts left out only because that fold changed the prefix they are bound to. */
  droppedForFold: number;
}

interface ConversionContext {
  profile: AnthropicModelProfile;
  tools: Tool[] | undefined;
  /** Send mid-session system and developer lines in place as `role: "system"` messages (models that take them). */
  inPlace?: boolean;
}

/**
 * The fingerprint a thinking signature is bound to: system, tools and every
 * earlier turn, as sent (before cache breakpoints are placed).
 */
export function anthropicPrefixHash(
  system: TextBlockParam[] | undefined,
  tools: Tool[] | undefined,
  messages: MessageParam[],
) {
  return stableHash({ system: system ?? null, tools: tools ?? null, messages });
}

/** Converts a packed request's system and messages. */
export function convertToAnthropicMessages(request: ModelRequest, context: ConversionContext): AnthropicConversion {
  // Each user message's blocks, made once: the plan asks which send a turn, the loop sends them.
  const userTurns = request.messages.map((message) => (message.role === 'user' ? userBlocks(message) : undefined));
  const plan = planInstructions(request.messages, context.inPlace === true, (index) => (userTurns[index]?.length ?? 0) > 0);
  const system = [request.system ?? '', ...plan.folded.map((index) => instructionText(request.messages[index]))]
    .filter((text) => text.length > 0)
    .map((text): TextBlockParam => ({ type: 'text', text }));
  const result: AnthropicConversion = {
    system: system.length > 0 ? system : undefined,
    messages: [],
    droppedReasoning: 0,
    lastAssistantDroppedReasoning: 0,
    wireIndexOf: [],
    foldedMidSession: plan.midSession.size,
    droppedForFold: 0,
  };
  const idOf = (id: string) => normalizeToolCallId(id, context.profile.toolCallId);
  let pending: string[] = [];
  const flush = () => {
    if (pending.length > 0) result.messages.push({ role: 'system', content: pending.map((text): TextBlockParam => ({ type: 'text', text })) });
    pending = [];
  };
  request.messages.forEach((message, index) => {
    if (plan.inPlace.has(index)) pending.push(instructionText(message));
    const userTurn = userTurns[index];
    if (userTurn) pushUserBlocks(result.messages, userTurn);
    if (message.role === 'tool') pushUserBlocks(result.messages, [toolResultBlock(message, idOf)]);
    if (message.role === 'assistant') {
      flush();
      const prefix = anthropicPrefixHash(result.system, context.tools, result.messages);
      const droppedBefore = result.droppedReasoning;
      const content = assistantBlocks(message, prefix, context, result, idOf);
      result.lastAssistantDroppedReasoning = result.droppedReasoning - droppedBefore;
      if (content.length > 0) result.messages.push({ role: 'assistant', content });
    }
    result.wireIndexOf.push(isInstruction(message) ? -1 : result.messages.length - 1);
  });
  flush();
  // On a bound model, the same request without the folded mid-session lines tells which drops the fold caused
  // (a block it drops changes the turn it was in, and so the prefix of every later block too).
  if (plan.midSession.size > 0 && context.profile.signatureBoundToPrefix) {
    const messages = request.messages.filter((_, index) => !plan.midSession.has(index));
    const unfolded = convertToAnthropicMessages({ ...request, messages }, context);
    result.droppedForFold = Math.max(0, result.droppedReasoning - unfolded.droppedReasoning);
  }
  return result;
}

/** Which system and developer lines go into the top-level `system`, and which go in place as `role: "system"` messages. */
interface InstructionPlan {
  folded: number[];
  inPlace: Set<number>;
  /** Folded lines that stood after the first other message (a fold that changes the prefix of what came before them). */
  midSession: Set<number>;
}

/**
 * Leading lines always fold (a system message cannot open `messages`). With `inPlace`, a
 * later line waits for the next assistant turn (or the end) and goes right before it,
 * after the user turn it stood in or before: the API takes a system message only after a
 * user message (tool results count) and before an assistant turn or the end
 * (docs/providers.md, "Mid-session system messages"). A line that would follow an
 * assistant turn with no user turn between folds, as all of them do without `inPlace`.
 */
function planInstructions(messages: readonly Message[], inPlace: boolean, sendsUserTurn: (index: number) => boolean): InstructionPlan {
  const plan: InstructionPlan = { folded: [], inPlace: new Set(), midSession: new Set() };
  let previous: 'user' | 'assistant' | undefined;
  let pending: number[] = [];
  const settle = () => {
    for (const index of pending) {
      if (inPlace && previous === 'user') {
        plan.inPlace.add(index);
      } else {
        plan.folded.push(index);
        plan.midSession.add(index);
      }
    }
    pending = [];
  };
  messages.forEach((message, index) => {
    if (isInstruction(message)) {
      if (previous === undefined) plan.folded.push(index);
      else pending.push(index);
    } else if (message.role === 'assistant') {
      settle();
      previous = 'assistant';
    } else if (message.role === 'tool' || sendsUserTurn(index)) {
      // A user message with no visible text sends no turn: a line after it still follows the assistant turn.
      previous = 'user';
    }
  });
  settle();
  plan.folded.sort((a, b) => a - b);
  return plan;
}

function instructionText(message: Message | undefined): string {
  return message && isInstruction(message) ? message.content : '';
}

/** A tool's result as a `tool_result` block. Blank output goes as no content: a blank text block is refused. */
function toolResultBlock(message: ToolMessage, idOf: (id: string) => string): ToolResultBlockParam {
  const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: idOf(message.toolCallId) };
  const text = toolResultText(message);
  if (hasVisibleText(text)) block.content = text;
  if (message.isError) block.is_error = true;
  return block;
}

/** Tool results and the user's next words share one user turn; results must come first. */
function pushUserBlocks(messages: MessageParam[], blocks: ContentBlockParam[]): void {
  if (blocks.length === 0) return;
  const last = messages.at(-1);
  if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(...blocks);
  else messages.push({ role: 'user', content: blocks });
}

/**
 * The API refuses empty text blocks and whitespace-only ones ("text content blocks
 * must contain non-whitespace text"); Claude itself sometimes answers "\n\n" before
 * a tool call, so such blocks are left out.
 */
function hasVisibleText(text: string): boolean {
  return text.trim().length > 0;
}

function userBlocks(message: UserMessage): ContentBlockParam[] {
  if (typeof message.content === 'string')
    return hasVisibleText(message.content) ? [{ type: 'text', text: message.content }] : [];
  return message.content.flatMap((part): ContentBlockParam[] => {
    if (part.type === 'text') return hasVisibleText(part.text) ? [{ type: 'text', text: part.text }] : [];
    if (part.url) return [{ type: 'image', source: { type: 'url', url: part.url } }];
    if (part.data)
      return [
        {
          type: 'image',
          source: {
            type: 'base64',
            data: part.data,
            media_type: (part.mediaType ?? 'image/png') as 'image/png',
          },
        } satisfies ImageBlockParam,
      ];
    return [];
  });
}

function assistantBlocks(
  message: AssistantMessage,
  prefix: string,
  context: ConversionContext,
  result: AnthropicConversion,
  idOf: (id: string) => string,
): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const part of message.content) {
    if (part.type === 'reasoning') {
      const block = thinkingBlock(part, prefix, context);
      if (block) blocks.push(block);
      else result.droppedReasoning += 1;
    } else if (part.type === 'text') {
      if (hasVisibleText(part.text)) blocks.push(textBlock(part));
    } else if (part.type === 'tool-call') {
      const input = typeof part.args === 'object' && part.args !== null ? part.args : {};
      blocks.push({ type: 'tool_use', id: idOf(part.id), name: part.name, input });
    } else if (part.type === 'provider-tool' || part.type === 'compaction') {
      // A tool the API ran itself, or its compaction, goes back as the block it came as
      // (other models' have lost their providerData already, and are left out).
      const block = storedBlock(part.providerData?.block, part.type === 'compaction');
      if (block) blocks.push(block);
    }
  }
  return blocks;
}

/**
 * A copy of a block kept verbatim: the request builder places `cache_control` on the
 * blocks it sends, and must never write it into the stored transcript (a later request
 * would carry that breakpoint too, past the API's four). A compaction block whose
 * content is empty goes with `content: null`: the param type allows only a summary or
 * null (a failed compaction, which the server treats as a no-op).
 */
function storedBlock(block: unknown, compaction: boolean): ContentBlockParam | undefined {
  if (typeof block !== 'object' || block === null) return undefined;
  const copy = { ...(block as Record<string, unknown>) };
  delete copy.cache_control;
  if (compaction && copy.content === '') copy.content = null;
  return copy as unknown as ContentBlockParam;
}

/** A text block, with the citations it came with (another provider's are gone with its providerData). */
function textBlock(part: TextPart): ContentBlockParam {
  const citations = part.providerData?.citations;
  return Array.isArray(citations) && citations.length > 0
    ? ({ type: 'text', text: part.text, citations } as ContentBlockParam)
    : { type: 'text', text: part.text };
}

/**
 * The block to send back, or undefined when this reasoning cannot be sent: without
 * opaque data (untagged history) it has no signature this model would accept.
 */
function thinkingBlock(part: ReasoningPart, prefix: string, context: ConversionContext): ContentBlockParam | undefined {
  const opaque = part.providerData;
  if (opaque === undefined) return undefined;
  const boundPrefix = opaque.prefix;
  if (context.profile.signatureBoundToPrefix && typeof boundPrefix === 'string' && boundPrefix !== prefix)
    return undefined;
  if (part.redacted) {
    const data = opaque.data;
    return typeof data === 'string' ? { type: 'redacted_thinking', data } : undefined;
  }
  return part.signature ? { type: 'thinking', thinking: part.text, signature: part.signature } : undefined;
}

/**
 * True when the request continues a tool-use turn (it ends with tool results)
 * and the final assistant turn does not start with a thinking block: manual
 * thinking mode rejects that, so the adapter turns thinking off for this call.
 */
export function finalTurnLacksThinking(messages: readonly MessageParam[]): boolean {
  if (!continuesToolUseTurn(messages)) return false;
  const assistant = messages.findLast((message) => message.role === 'assistant');
  // A compaction block opens the turn it was made in; the thinking rule applies to what follows it
  // (the API drops everything before the block). Unverified against the live API: no recording has both.
  const blocks = Array.isArray(assistant?.content) ? assistant.content : [];
  const first = blocks.find((block) => (block.type as string) !== 'compaction');
  return first?.type !== 'thinking' && first?.type !== 'redacted_thinking';
}

/**
 * True when the request ends with tool results, i.e. it continues a tool-use turn (a
 * system message placed after them changes nothing: the turn still runs on).
 */
export function continuesToolUseTurn(messages: readonly MessageParam[]): boolean {
  const last = messages.findLast((message) => message.role !== 'system');
  if (last?.role !== 'user' || !Array.isArray(last.content)) return false;
  return last.content.every((block) => block.type === 'tool_result');
}
