/**
 * Reasoning that rides on parts other than reasoning parts. Some providers put
 * opaque reasoning data on a text or tool-call part (Gemini's `thoughtSignature` on
 * a `functionCall` or an answer text part): the part stays, the reasoning data must
 * still follow reasoning retention. Adapters name such fields in
 * `providerData.reasoningFields`; the packer takes them off with the reasoning parts.
 */
import type { AssistantPart, ProviderData } from './message.js';

/** True when the part carries provider data marked as reasoning (and is not itself a reasoning part). */
export function hasReasoningData(part: AssistantPart): boolean {
  if (part.type === 'reasoning') return false;
  const fields = part.providerData?.reasoningFields;
  return Array.isArray(fields) && fields.some((field) => Object.hasOwn(part.providerData as ProviderData, field));
}

/**
 * The part without the provider data fields marked as reasoning. Provider data left
 * with nothing but its producer tag is removed whole. Returns the same part when it
 * carries no reasoning data.
 */
export function withoutReasoningData<Part extends AssistantPart>(part: Part): Part {
  if (!hasReasoningData(part)) return part;
  const data = part.providerData as ProviderData;
  const marked = new Set(data.reasoningFields);
  const kept = Object.fromEntries(
    Object.entries(data).filter(([field]) => !marked.has(field) && field !== 'reasoningFields'),
  ) as ProviderData;
  const { providerData: _dropped, ...rest } = part;
  const onlyTag = Object.keys(kept).every((field) => field === 'provider' || field === 'model');
  return (onlyTag ? rest : { ...rest, providerData: kept }) as Part;
}
