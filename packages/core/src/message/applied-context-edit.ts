/**
 * What a provider's context editing removed before the model read a call (Anthropic
 * `context_management.applied_edits`). The provider keeps no state: it applies the same
 * edits to every call whose input passes the trigger, so the transcript keeps the full
 * history and this record says what the model did not see on this step.
 */
export interface AppliedContextEdit {
  /** The provider's edit type, e.g. `clear_tool_uses_20250919`, `clear_thinking_20251015`. */
  type: string;
  /** Input tokens the edit removed, as the provider reported. */
  clearedInputTokens: number;
  /** Tool uses cleared (tool-use edits). */
  clearedToolUses?: number;
  /** Assistant turns whose thinking was cleared (thinking edits). */
  clearedThinkingTurns?: number;
  /**
   * The tool calls whose results were cleared, oldest first: derived by the adapter from
   * the documented rule (oldest results first, excluded tools never) and the count the
   * provider reported, since the provider names no ids.
   */
  toolCallIds?: string[];
  [extra: string]: unknown;
}
