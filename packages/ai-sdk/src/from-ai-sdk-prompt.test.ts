import { describe, expect, it } from 'vitest';
import { AISDKConversionError } from './ai-sdk-error.js';
import type { AISDKMessage } from './ai-sdk-types.js';
import { fromAISDKPrompt } from './from-ai-sdk-prompt.js';
import { episodicPacking } from './packing-middleware.js';
import { toAISDKPrompt } from './to-ai-sdk-prompt.js';

const model = { provider: 'anthropic', id: 'claude-sonnet-4-5' };

/** A prompt with every part kind the AI SDK sends back, each with the provider data that must survive. */
const prompt = [
  { role: 'system', content: 'You debug CI failures.', providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Why is CI red? See the screenshot.' },
      { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'file', mediaType: 'application/pdf', filename: 'report.pdf', data: 'JVBERi0=' },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Read the log.', providerOptions: { anthropic: { signature: 'sig-abc' } } },
      { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'opaque-redacted' } } },
      { type: 'reasoning', text: 'summary', providerOptions: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'enc-xyz' } } },
      { type: 'text', text: 'Looking.', providerOptions: { openai: { itemId: 'msg_1' } } },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read_log', input: { run: 1 }, providerOptions: { google: { thoughtSignature: 'ts-1' } } },
      { type: 'tool-call', toolCallId: 'srv1', toolName: 'web_search', input: { query: 'flaky' }, providerExecuted: true },
      { type: 'tool-result', toolCallId: 'srv1', toolName: 'web_search', output: { type: 'json', value: [{ url: 'https://x' }] } },
      { type: 'custom', kind: 'anthropic.message_start', providerOptions: { anthropic: { id: 'msg_9' } } },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'c1', toolName: 'read_log', output: { type: 'json', value: { failed: 1 } } },
      { type: 'tool-result', toolCallId: 'c2', toolName: 'read_log', output: { type: 'error-text', value: 'no such run' } },
      {
        type: 'tool-result',
        toolCallId: 'c3',
        toolName: 'read_log',
        output: { type: 'content', value: [{ type: 'text', text: 'see image' }, { type: 'image-data', data: 'AAAA', mediaType: 'image/png' }] },
      },
    ],
    providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
  },
  { role: 'system', content: 'Switched to the fast model.' },
] as unknown as AISDKMessage[];

describe('fromAISDKPrompt and toAISDKPrompt', () => {
  it('give back the same prompt, every part and its providerOptions verbatim', () => {
    const converted = fromAISDKPrompt(prompt, model);
    expect(converted.system).toBe('You debug CI failures.');
    const back = toAISDKPrompt(converted.messages, 'v3').prompt;
    expect([...converted.leadingSystem, ...back]).toEqual(prompt);
  });

  it('reads parts as the packer counts them: tool results split, errors flagged, thought signatures as reasoning data', () => {
    const { messages } = fromAISDKPrompt(prompt, model);
    const results = messages.filter((message) => message.role === 'tool');
    expect(results.map((message) => message.role === 'tool' && [message.toolCallId, message.content, message.isError ?? false])).toEqual([
      ['c1', '{"failed":1}', false],
      ['c2', 'no such run', true],
      ['c3', [{ type: 'text', text: 'see image' }, { type: 'image', mediaType: 'image/png' }], false],
    ]);
    const assistant = messages.find((message) => message.role === 'assistant');
    const call = assistant?.role === 'assistant' ? assistant.content.find((part) => part.type === 'tool-call') : undefined;
    expect(call?.providerData?.reasoningFields).toEqual(['providerOptions']);
    const redacted = assistant?.role === 'assistant' ? assistant.content[1] : undefined;
    expect(redacted).toMatchObject({ type: 'reasoning', redacted: true });
  });

  it('reuses the last call`s messages for an equal prompt (new objects), so the packer`s caches keep hitting', () => {
    const first = fromAISDKPrompt(prompt, model);
    const again = fromAISDKPrompt(structuredClone(prompt), model, first.kept);
    expect(again.messages).toHaveLength(first.messages.length);
    again.messages.forEach((message, index) => expect(message).toBe(first.messages[index]));
    // A changed message is converted again, and so is everything after it.
    const changed = structuredClone(prompt) as unknown as { content: unknown }[];
    changed[1] = { ...changed[1], content: [{ type: 'text', text: 'Another question.' }] };
    const third = fromAISDKPrompt(changed as unknown as AISDKMessage[], model, first.kept);
    expect(third.messages.some((message, index) => message === first.messages[index])).toBe(false);
  });

  it('refuses a tool message part it cannot carry, naming the message and part', () => {
    const approval = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'a1', approved: true }] },
    ] as unknown as AISDKMessage[];
    expect(() => fromAISDKPrompt(approval, model)).toThrow(AISDKConversionError);
    expect(() => fromAISDKPrompt(approval, model)).toThrow(/message 1 \(tool\), part 0, has type "tool-approval-response"/);
  });

  it('refuses a message role no AI SDK version sends', () => {
    const odd = [{ role: 'critic', content: 'hm' }] as unknown as AISDKMessage[];
    const error = (() => {
      try {
        fromAISDKPrompt(odd, model);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toMatchObject({ code: 'ai_sdk_invalid_prompt' });
  });
});

describe('episodicPacking on provider data', () => {
  const gemini = { provider: 'google.generative-ai', modelId: 'gemini-3-pro-preview', specificationVersion: 'v3' } as never;
  const signedStep = (episode: number) => [
    { role: 'user', content: [{ type: 'text', text: `question ${episode}` }] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: `thinking ${episode}`, providerOptions: { google: { thoughtSignature: `rs-${episode}` } } },
        { type: 'tool-call', toolCallId: `c${episode}`, toolName: 't', input: {}, providerOptions: { google: { thoughtSignature: `ts-${episode}` } } },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: `c${episode}`, toolName: 't', output: { type: 'text', value: 'ok' } }] },
  ];

  it('drops a past episode`s reasoning and thought signatures and keeps the current episode`s verbatim', async () => {
    const params = { prompt: [...signedStep(1), { role: 'assistant', content: [{ type: 'text', text: 'done' }] }, ...signedStep(2)] } as never;
    const packed = await episodicPacking({ budget: 50_000 }).transformParams({ type: 'generate', params, model: gemini });
    const sent = JSON.stringify((packed as { prompt: unknown }).prompt);
    expect(sent).not.toMatch(/thinking 1|rs-1|ts-1/);
    expect(sent).toContain('"thoughtSignature":"rs-2"');
    expect(sent).toContain('"thoughtSignature":"ts-2"');
    // The past episode's tool call and result stay, paired, without the signature.
    expect(sent).toContain('"toolCallId":"c1"');
  });
});
