/**
 * Neutral messages to Gemini contents (https://ai.google.dev/api/generate-content#Content,
 * signatures: https://ai.google.dev/gemini-api/docs/thought-signatures).
 *
 * - Thought parts go back as `{text, thought: true}` when they carry opaque data
 *   (other models' reasoning and opaque data are already gone: the adapter strips
 *   them first, with core's one rule).
 * - A `thoughtSignature` stays on the part that carried it (text, thought or
 *   function call, including an empty text part).
 * - Parallel calls stay together: one model turn with every call, then one user
 *   turn with every response, in the same order.
 * - In the current turn the first function call of each step must carry a
 *   signature on models that require it; calls this model did not produce get the
 *   documented placeholder.
 */

import { type AssistantMessage, isInstruction, type Message, type ToolMessage, type UserMessage } from '@episodic/core';
import type { Content, Part } from '@google/genai';
import type { GoogleModelProfile } from '../profiles/google.js';

export interface GoogleConversion {
  systemInstruction: Content | undefined;
  contents: Content[];
}

interface ConversionContext {
  profile: GoogleModelProfile;
}

/**
 * Converts packed messages; `system` and the transcript's system and developer lines
 * become the system instruction (Gemini has no instruction turn inside `contents`).
 */
export function convertToGoogleMessages(
  system: string | undefined,
  messages: readonly Message[],
  context: ConversionContext,
): GoogleConversion {
  const systemTexts = [system ?? '', ...messages.flatMap((m) => (isInstruction(m) ? [m.content] : []))].filter(
    (text) => text.length > 0,
  );
  const result: GoogleConversion = {
    systemInstruction: systemTexts.length > 0 ? { parts: systemTexts.map((text) => ({ text })) } : undefined,
    contents: [],
  };
  const providerIds = new Set<string>();
  const currentTurnStart = messages.findLastIndex((message) => message.role === 'user');
  messages.forEach((message, index) => {
    if (message.role === 'user') pushParts(result.contents, 'user', userParts(message));
    if (message.role === 'tool') pushParts(result.contents, 'user', [functionResponse(message, providerIds)]);
    if (message.role !== 'assistant') return;
    const parts = modelParts(message, providerIds);
    if (index > currentTurnStart) requireSignature(parts, context.profile);
    if (parts.length > 0) result.contents.push({ role: 'model', parts });
  });
  return result;
}

function pushParts(contents: Content[], role: 'user' | 'model', parts: Part[]): void {
  if (parts.length === 0) return;
  const last = contents.at(-1);
  if (last?.role === role && last.parts) last.parts.push(...parts);
  else contents.push({ role, parts });
}

function userParts(message: UserMessage): Part[] {
  if (typeof message.content === 'string') return message.content.length > 0 ? [{ text: message.content }] : [];
  return message.content.flatMap((part): Part[] => {
    if (part.type === 'text') return part.text.length > 0 ? [{ text: part.text }] : [];
    const mimeType = part.mediaType ?? 'image/png';
    if (part.data) return [{ inlineData: { mimeType, data: part.data } }];
    if (part.url) return [{ fileData: { mimeType, fileUri: part.url } }];
    return [];
  });
}

function functionResponse(message: ToolMessage, providerIds: Set<string>): Part {
  const response = message.isError ? { error: message.content } : { output: message.content };
  const id = providerIds.has(message.toolCallId) ? { id: message.toolCallId } : {};
  return { functionResponse: { name: message.toolName, response, ...id } };
}

function modelParts(message: AssistantMessage, providerIds: Set<string>): Part[] {
  const parts: Part[] = [];
  for (const part of message.content) {
    const opaque = part.providerData;
    const signature = typeof opaque?.thoughtSignature === 'string' ? opaque.thoughtSignature : undefined;
    const signed = signature ? { thoughtSignature: signature } : {};
    if (part.type === 'reasoning') {
      // Reasoning without opaque data (history without provenance) is left out: nothing ties it to this model.
      if (opaque) parts.push({ text: part.text, thought: true, ...signed });
    } else if (part.type === 'text') {
      if (part.text.length > 0 || signature) parts.push({ text: part.text, ...signed });
    } else if (part.type === 'tool-call') {
      const fromProvider = opaque?.idFromProvider === true;
      if (fromProvider) providerIds.add(part.id);
      const args = typeof part.args === 'object' && part.args !== null ? (part.args as Record<string, unknown>) : {};
      parts.push({ functionCall: { name: part.name, args, ...(fromProvider ? { id: part.id } : {}) }, ...signed });
    } else if (part.type === 'provider-tool') {
      // A part this adapter kept without reading it goes back as it came (other models' are gone already).
      const kept = opaque?.part;
      if (typeof kept === 'object' && kept !== null) parts.push(kept as Part);
    }
  }
  return parts;
}

/** Current-turn steps on signature-validating models: the first call must be signed. */
function requireSignature(parts: Part[], profile: GoogleModelProfile): void {
  if (profile.functionCallSignatures !== 'required') return;
  const first = parts.find((part) => part.functionCall !== undefined);
  if (first && !first.thoughtSignature) first.thoughtSignature = profile.placeholderSignature;
}
