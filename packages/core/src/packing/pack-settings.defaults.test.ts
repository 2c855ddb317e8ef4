/**
 * The default tool-result caps as a user meets them: a result of the current episode
 * reaches the model whole unless it is genuinely large, and results are shortened only
 * when room runs out, oldest first (past episodes' before the current one's).
 */
import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import type { Message, ToolMessage } from '../message/message.js';
import type { ModelRequest } from '../model/model-adapter.js';
import { scriptedModel } from '../testing/scripted-model.js';
import type { AgentTool } from '../loop/tool.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { packContext } from './pack-context.js';
import { toolResultCaps } from './tool-result-caps.js';

/** A build log of about `chars` characters: varied lines, as real tool output is. */
function buildLog(chars: number, seed = 0): string {
  const lines: string[] = [];
  let length = 0;
  for (let index = 0; length < chars; index += 1) {
    const line = `[${String(index + seed).padStart(5, '0')}] src/module-${(index * 7 + seed) % 97}.ts:${(index * 13) % 400} compiled in ${(index * 31) % 900} ms`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n').slice(0, chars);
}

const bash = (output: (call: number) => string): AgentTool => {
  let calls = 0;
  return {
    spec: { name: 'bash', description: 'Runs a command.', inputSchema: { type: 'object', properties: {} } },
    execute: async () => ({ content: output(calls++) }),
  };
};

const resultsIn = (request: ModelRequest) =>
  request.messages.filter((message): message is ToolMessage => message.role === 'tool');

describe('default tool-result caps', () => {
  it('sends a 14,290-character result of the current episode whole at a 192k budget', async () => {
    const output = buildLog(14_290);
    expect(output).toHaveLength(14_290);
    const requests: ModelRequest[] = [];
    const model = scriptedModel({
      steps: (request, index) => {
        requests.push(request);
        return index === 0 ? { toolCalls: [{ id: 'call_build', name: 'bash', args: {} }] } : { text: 'built' };
      },
    });
    const agent = new Agent({ model, tools: [bash(() => output)], context: { budget: 192_000 } });
    const result = await agent.run('Why is the build slow?');
    expect(result.text).toBe('built');
    const [sent] = resultsIn(requests[1]!);
    expect(sent?.content).toBe(output);
  });

  it('caps a current-episode result at a quarter of the budget, at most 25,000 tokens, never under the past cap', () => {
    expect(toolResultCaps({ budget: 192_000 })).toEqual({ pastCap: 900, currentCap: 25_000 });
    expect(toolResultCaps({ budget: 64_000 })).toEqual({ pastCap: 640, currentCap: 16_000 });
    expect(toolResultCaps({ budget: 16_000 })).toEqual({ pastCap: 512, currentCap: 4_000 });
    expect(toolResultCaps({ budget: 1_000 })).toEqual({ pastCap: 64, currentCap: 250 });
    expect(toolResultCaps({ budget: 192_000, toolResultCap: 30_000 })).toEqual({ pastCap: 30_000, currentCap: 30_000 });
  });

  it('shortens results only when room runs out: past episodes first, then the current episode oldest first', () => {
    const counter = createTokenCounter();
    const budget = 16_000;
    const messages: Message[] = [{ role: 'user', content: 'first question' }];
    let id = 0;
    const stepWith = (output: string): Message[] => {
      id += 1;
      return [
        { role: 'assistant', content: [{ type: 'tool-call', id: `call_${id}`, name: 'bash', args: {} }] },
        { role: 'tool', toolCallId: `call_${id}`, toolName: 'bash', content: output },
      ];
    };
    messages.push(...stepWith(buildLog(6_000, 1)), { role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
    messages.push({ role: 'user', content: 'second question' });
    // Three results of about 1,500-2,000 tokens each: whole under the 4,000-token current cap.
    const current = [buildLog(6_000, 2), buildLog(6_000, 3), buildLog(6_000, 4)];
    for (const output of current.slice(0, 2)) messages.push(...stepWith(output));
    const roomy = packContext({ messages, budget, tokenizer: counter });
    const sentRoomy = roomy.messages.filter((message): message is ToolMessage => message.role === 'tool');
    // The past episode's result is over the past cap (512): cut; the current ones go whole.
    expect(sentRoomy.map((message) => message.content === current[0] || message.content === current[1])).toEqual([false, true, true]);
    expect(roomy.stats.currentEpisodeShortened).toBe(false);

    // More of the same until the current episode alone outgrows the budget: the past episode
    // goes first, then the oldest current results are cut, and the latest stays whole.
    for (let more = 0; more < 6; more += 1) messages.push(...stepWith(buildLog(6_000, 10 + more)));
    const tight = packContext({ messages, budget, tokenizer: counter });
    const sent = tight.messages.filter((message): message is ToolMessage => message.role === 'tool');
    expect(tight.messages.some((message) => message.role === 'user' && message.content === 'first question')).toBe(false);
    expect(tight.stats.currentEpisodeShortened).toBe(true);
    const latest = messages[messages.length - 1] as ToolMessage;
    expect(sent[sent.length - 1]?.content).toBe(latest.content);
    expect(sent.some((message) => message.content !== messages.find((m) => m.role === 'tool' && m.toolCallId === message.toolCallId)?.content)).toBe(true);
    expect(tight.stats.tokens.total).toBeLessThanOrEqual(budget);
  });
});
