/**
 * Records on each reasoning part the reasoning tokens the provider reported for the
 * call that produced it, so the token counter can weigh opaque reasoning
 * (encrypted, redacted, signature-only) by what it holds rather than by its text
 * (see `ReasoningPart.tokens`).
 */
import type { AssistantPart, ReasoningPart } from '@episodic/core';

/** How much of the call's reasoning a part holds, as far as its size tells. */
function weightOf(part: ReasoningPart): number {
  return part.text.length + (part.signature?.length ?? 0) + JSON.stringify(part.providerData ?? {}).length;
}

/**
 * Spreads `reported` over the reasoning parts in proportion to their size (one part
 * takes it all) and sets each part's `tokens`. Does nothing without a report.
 */
export function recordReasoningTokens(content: readonly AssistantPart[], reported: number | undefined): void {
  if (reported === undefined || !Number.isFinite(reported) || reported < 0) return;
  const parts = content.filter((part): part is ReasoningPart => part.type === 'reasoning');
  const total = parts.reduce((sum, part) => sum + weightOf(part), 0);
  let left = Math.round(reported);
  parts.forEach((part, index) => {
    const share = index === parts.length - 1 ? left : Math.round((reported * weightOf(part)) / Math.max(total, 1));
    part.tokens = Math.max(0, Math.min(share, left));
    left -= part.tokens;
  });
}
