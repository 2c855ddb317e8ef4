/**
 * Live check against the real DeepSeek API (thinking mode with tools, which must
 * get `reasoning_content` back for every tool-call message). Skipped without a key.
 */
import { describe, expect, it } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../packages/providers/src/openai-compatible/openai-compatible-adapter.js';
import { runLiveSession } from './live-tools.js';

const key = process.env.DEEPSEEK_API_KEY;
const title = key ? 'live DeepSeek' : 'live DeepSeek (skipped: DEEPSEEK_API_KEY is not set)';

describe.skipIf(!key)(title, () => {
  it('thinking mode: two episodes with tool calls are accepted (tool-episodes retention)', async () => {
    const adapter = createOpenAICompatibleAdapter({ provider: 'deepseek', model: process.env.DEEPSEEK_MODEL ?? 'deepseek-v3.2', maxRetries: 2 });
    const { responses } = await runLiveSession(adapter, 2_000);
    expect(responses.at(-1)?.stopReason).toBe('stop');
    expect(responses.some((r) => r.message.content.some((part) => part.type === 'reasoning'))).toBe(true);
  }, 180_000);
});
