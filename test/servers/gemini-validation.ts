/**
 * What the Gemini API rejects, with its error strings (docs/providers.md and field
 * reports; https://ai.google.dev/gemini-api/docs/thought-signatures). Used by
 * ./gemini-server.ts.
 */
import type { RequestView } from './scripted-server.js';
import { geminiFormatProblem, geminiFormatView } from './structured-output-rules.js';

/** A part on the wire (only the fields the checks read). */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response?: Record<string, unknown> };
  [field: string]: unknown;
}

export interface GeminiContent {
  role?: string;
  parts: GeminiPart[];
}

export interface GeminiBody {
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: { functionDeclarations?: { name: string }[] }[];
  generationConfig?: {
    thinkingConfig?: { thinkingBudget?: number; thinkingLevel?: string; includeThoughts?: boolean };
    [field: string]: unknown;
  };
}

/** The placeholder Google documents for calls the model did not produce. */
export const placeholderSignature = 'skip_thought_signature_validator';

/** A step the server produced: its model, its calls and its reasoning texts. */
export interface IssuedStep {
  model: string;
  calls: number;
  reasoning: string[];
}

export interface GeminiValidationContext {
  /** Signatures issued by this server. */
  issued: Map<string, IssuedStep>;
  /** Models that validate current-turn function-call signatures (Gemini 3). */
  requiresSignatures: (model: string) => boolean;
  /** Models that take a thinking budget only (2.5) and reject a level. */
  budgetOnly: (model: string) => boolean;
  /**
   * Strict mode beyond the API: refuse a thought signature before the current turn.
   * The API does not validate past turns' signatures, so it takes them silently;
   * this checks Episodic's promise that opaque reasoning leaves with its episode.
   */
  rejectPastSignatures?: boolean;
}

const isRealUserContent = (content: GeminiContent | undefined) =>
  content?.role === 'user' && content.parts.some((part) => part.functionResponse === undefined);

/** The neutral view of a request. */
export function viewOfGeminiRequest(model: string, body: GeminiBody, issued: Map<string, IssuedStep>): RequestView {
  const view: RequestView = {
    model,
    echoedReasoning: [],
    reasoningItems: 0,
    toolCallIds: [],
    toolResultIds: [],
    toolErrorIds: [],
    userTexts: [],
    messageCount: body.contents.length,
    cacheBreakpoints: 0,
  };
  const format = geminiFormatView(body.generationConfig);
  if (format) view.outputFormat = format;
  for (const content of body.contents) {
    const thoughts = content.parts.filter((part) => part.thought === true);
    view.reasoningItems += thoughts.length;
    const signed = content.parts.map((part) => part.thoughtSignature).find((signature) => signature !== undefined);
    const step = signed ? issued.get(signed) : undefined;
    // Thought text counts as echoed when it comes back in a turn carrying a signature of the same model.
    if (step?.model === model)
      view.echoedReasoning.push(
        ...thoughts.map((part) => part.text ?? '').filter((text) => step.reasoning.includes(text)),
      );
    for (const part of content.parts) {
      if (part.functionCall) view.toolCallIds.push(part.functionCall.id ?? part.functionCall.name);
      if (part.functionResponse) {
        const id = part.functionResponse.id ?? part.functionResponse.name;
        view.toolResultIds.push(id);
        if (part.functionResponse.response?.error !== undefined) view.toolErrorIds.push(id);
      }
      if (content.role === 'user' && part.text !== undefined) view.userTexts.push(part.text);
    }
  }
  return view;
}

/** The first reason the API would reject this request, or undefined. */
export function validateGeminiRequest(
  model: string,
  body: GeminiBody,
  context: GeminiValidationContext,
): string | undefined {
  const hasFunctions = (body.tools ?? []).some((tool) => (tool.functionDeclarations?.length ?? 0) > 0);
  return (
    geminiFormatProblem(body.generationConfig, model, hasFunctions) ??
    checkThinkingConfig(model, body, context) ??
    checkSignaturesGenuine(model, body, context) ??
    checkCallResponsePairing(body, context) ??
    checkCurrentTurnSignatures(model, body, context) ??
    checkPastTurnSignatures(body, context)
  );
}

/** Where the current turn starts: the last user content that is not only function responses. */
function currentTurnStart(body: GeminiBody): number {
  let start = body.contents.length - 1;
  while (start > 0 && !isRealUserContent(body.contents[start])) start -= 1;
  return start;
}

function checkPastTurnSignatures(body: GeminiBody, context: GeminiValidationContext) {
  if (!context.rejectPastSignatures) return undefined;
  const start = currentTurnStart(body);
  for (const [index, content] of body.contents.slice(0, start).entries()) {
    const part = content.parts.findIndex((candidate) => candidate.thoughtSignature !== undefined);
    if (part >= 0)
      return `strict loopback rule (not an API error): contents[${index}].parts[${part}] carries a thoughtSignature from a turn before the current one; opaque reasoning must leave with its episode.`;
  }
  return undefined;
}

/**
 * The thinking levels a model takes: Gemini 4 per Google Cloud's developer guides
 * (checked 2026-12-05; `XHIGH` on Hydrogen only, no `MINIMAL`); Gemini 3.1 Pro and 3.7
 * and 3.8 Flash `LOW` to `HIGH` (Google's *Thinking* page and developer guides, read
 * 2026-12-05, docs/providers.md); any other model every level but `XHIGH`, which no page
 * documents for it. The refusal is the API's text for `MINIMAL` on Gemini 3.8 Flash (a
 * field report, 2026-09), with the level put in.
 */
function levelsOf(model: string): string[] {
  if (/^gemini-4-hydrogen/.test(model)) return ['LOW', 'MEDIUM', 'HIGH', 'XHIGH'];
  if (/^gemini-4-/.test(model)) return ['LOW', 'MEDIUM', 'HIGH'];
  if (/^gemini-3\.1-pro|^gemini-3\.[78]-flash(?!-lite)/.test(model)) return ['LOW', 'MEDIUM', 'HIGH'];
  return ['MINIMAL', 'LOW', 'MEDIUM', 'HIGH'];
}

function checkThinkingConfig(model: string, body: GeminiBody, context: GeminiValidationContext) {
  const config = body.generationConfig?.thinkingConfig;
  if (!config) return undefined;
  if (config.thinkingBudget !== undefined && config.thinkingLevel !== undefined)
    return 'You can only set only one of thinking budget and thinking level.';
  if (config.thinkingLevel !== undefined && context.budgetOnly(model))
    return 'thinking_level is not supported by this model.';
  const level = config.thinkingLevel?.toUpperCase();
  if (level !== undefined && !levelsOf(model).includes(level))
    return `Thinking level ${level} is not supported for this model. Please retry with other thinking level.`;
  // Only 2.5 Flash and Flash-Lite can switch thinking off; Pro and Gemini 3 always think.
  if (config.thinkingBudget === 0 && !/^gemini-2\.5-flash/.test(model))
    return 'Budget 0 is invalid. This model only works in thinking mode.';
  return undefined;
}

function checkSignaturesGenuine(model: string, body: GeminiBody, context: GeminiValidationContext) {
  for (const content of body.contents) {
    for (const part of content.parts) {
      const signature = part.thoughtSignature;
      if (signature === undefined || signature === placeholderSignature) continue;
      if (context.issued.get(signature)?.model !== model) return 'Corrupted thought signature.';
    }
  }
  return undefined;
}

/**
 * A model turn with N calls must be followed by a user turn with N responses,
 * a step's parallel calls must stay in one turn (FC1, FC2 then FR1, FR2), and a
 * response turn must directly follow a call turn.
 */
function checkCallResponsePairing(body: GeminiBody, context: GeminiValidationContext) {
  const message =
    'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
  for (const [index, content] of body.contents.entries()) {
    const previous = body.contents[index - 1];
    const answersCalls = previous?.role === 'model' && previous.parts.some((part) => part.functionCall);
    if (content.parts.some((part) => part.functionResponse) && !answersCalls)
      return 'Please ensure that function response turn comes immediately after a function call turn.';
    const calls = content.parts.filter((part) => part.functionCall);
    if (content.role !== 'model' || calls.length === 0) continue;
    const responses = (body.contents[index + 1]?.parts ?? []).filter((part) => part.functionResponse);
    if (responses.length !== calls.length) return message;
    const signature = calls[0]?.thoughtSignature;
    const step = signature ? context.issued.get(signature) : undefined;
    if (step && step.calls !== calls.length) return message;
  }
  return undefined;
}

function checkCurrentTurnSignatures(model: string, body: GeminiBody, context: GeminiValidationContext) {
  if (!context.requiresSignatures(model)) return undefined;
  for (let index = currentTurnStart(body); index < body.contents.length; index += 1) {
    const content = body.contents[index];
    const first = content?.parts.find((part) => part.functionCall);
    if (content?.role !== 'model' || !first?.functionCall || first.thoughtSignature) continue;
    return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${first.functionCall.name}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
  }
  return undefined;
}
