/**
 * Reasoning retention: which reasoning parts of a transcript go back to the model.
 * The packer applies it; model profiles choose it per provider and model.
 */

/**
 * Which reasoning parts are sent back.
 * - `episode` (default): reasoning of the current episode only.
 * - `tool-episodes`: also reasoning of past assistant messages that made tool calls
 *   (DeepSeek thinking models require it).
 * - `all`: every reasoning part.
 * - `none`: no reasoning at all.
 */
export type Retention = 'episode' | 'tool-episodes' | 'all' | 'none';

/** Whether retention keeps an assistant message's reasoning (in the current episode or not, with tool calls or not). */
export function keepsReasoning(retention: Retention, current: boolean, hasToolCalls: boolean): boolean {
  switch (retention) {
    case 'all':
      return true;
    case 'none':
      return false;
    case 'tool-episodes':
      return current || hasToolCalls;
    default:
      return current;
  }
}
