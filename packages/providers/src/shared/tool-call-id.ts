/**
 * Tool-call ids as a target API accepts them. Ids from another provider (or a
 * transcript) may contain characters or lengths the target rejects; the mapping
 * is a pure function of the id so a call and its result always agree.
 */
import { digest } from '@episodic/core/internal';

/** Which ids a wire API accepts. */
export interface ToolCallIdRule {
  /** Allowed characters as a RegExp character-class body, e.g. `a-zA-Z0-9_-`. */
  allowed: string;
  maxLength: number;
}

/** Anthropic: `^[a-zA-Z0-9_-]+$`, 64 characters at most (https://docs.claude.com/en/api/messages). */
export const anthropicToolCallIdRule: ToolCallIdRule = { allowed: 'a-zA-Z0-9_-', maxLength: 64 };

/**
 * Returns `id` unchanged when the rule accepts it; otherwise replaces the
 * characters the rule rejects with `_`, cuts to length and appends a short hash
 * of the original so two different ids never collapse into one.
 */
export function normalizeToolCallId(id: string, rule: ToolCallIdRule): string {
  const valid = new RegExp(`^[${rule.allowed}]+$`);
  if (id.length > 0 && id.length <= rule.maxLength && valid.test(id)) return id;
  const suffix = digest('sha256', id, 'hex').slice(0, 10);
  const cleaned = id.replace(new RegExp(`[^${rule.allowed}]`, 'g'), '_');
  const head = cleaned.slice(0, Math.max(0, rule.maxLength - suffix.length - 1));
  return head.length > 0 ? `${head}_${suffix}` : `id_${suffix}`.slice(0, rule.maxLength);
}
