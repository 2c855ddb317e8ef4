/**
 * Every reasoning model family on every host row, over loopback servers that
 * refuse what the family refuses (in the host's field, with the host's own rules):
 * a two-episode, tool-using conversation through the real packer gets no refusal.
 * Negative controls show each refusal is live: the same conversation without the
 * family's rule meets the family's real error text.
 */
import { generate, type Message, type ModelAdapter, type ToolSpec } from '@episodic/core';
import { packContext } from '@episodic/core/packing';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../packages/providers/src/openai-compatible/openai-compatible-adapter.js';
import type { CompatibleProfile } from '../../packages/providers/src/profiles/openai-compatible.js';
import { findModelFamily } from '../../packages/providers/src/profiles/model-families.js';
import {
  hostBehaviours,
  type HostedFamily,
  hostedFamilies,
  hostedFamilyRule,
  type HostedHost,
} from '../servers/hosted-family-rules.js';
import { startOpenAIChatServer } from '../servers/openai-chat-server.js';
import type { OpenAIScriptedServer } from '../servers/openai-responses-server.js';

const tools: ToolSpec[] = [
  { name: 'get_ci_log', description: 'Reads a CI log', inputSchema: { type: 'object', properties: {} } },
];

let servers: OpenAIScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function setup(family: HostedFamily, host: HostedHost, profile: Partial<CompatibleProfile> = {}) {
  const server = await startOpenAIChatServer(hostedFamilyRule(family, host));
  servers.push(server);
  const adapter = createOpenAICompatibleAdapter({
    provider: host,
    model: hostedFamilies[family],
    baseURL: server.url,
    apiKey: 'test-key',
    profile,
  });
  return { server, adapter };
}

/** Two episodes, each a tool step then an answer, through the packer with the profile's retention. */
async function twoToolEpisodes(server: OpenAIScriptedServer, adapter: ModelAdapter): Promise<Message[]> {
  const step = (reasoning: string) => ({
    type: 'reply' as const,
    reasoning: [reasoning],
    toolCalls: [{ name: 'get_ci_log', args: {} }],
  });
  server.enqueue(
    step('need the log'),
    { type: 'reply', reasoning: ['it is flaky'], text: 'Flaky test.' },
    step('check again'),
    { type: 'reply', reasoning: ['still flaky'], text: 'Re-run it.' },
  );
  const transcript: Message[] = [];
  const call = async () => {
    const packed = packContext({ messages: transcript, budget: 50_000, retention: adapter.profile?.retention });
    const result = await generate(adapter, { system: 'sys', messages: packed.messages, tools });
    transcript.push(result.message);
    return result.message;
  };
  for (const question of ['CI is red', 'And now?']) {
    transcript.push({ role: 'user', content: question });
    const first = await call();
    const toolCall = first.content.find((part) => part.type === 'tool-call');
    transcript.push({ role: 'tool', toolCallId: String(toolCall?.id), toolName: 'get_ci_log', content: 'FAIL' });
    await call();
  }
  return transcript;
}

const rows = (Object.keys(hostedFamilies) as HostedFamily[]).flatMap((family) =>
  (Object.keys(hostBehaviours) as HostedHost[]).map((host) => [family, host] as const),
);

describe('reasoning model families on every host', () => {
  it.each(rows)('%s on %s: two tool-using episodes, no refusal', async (family, host) => {
    const { server, adapter } = await setup(family, host);
    const transcript = await twoToolEpisodes(server, adapter);
    expect(server.requests.map((request) => request.error ?? request.status)).toEqual([200, 200, 200, 200]);
    // Reasoning was read from the host's field (or the content tags) and kept in the transcript.
    const reasoning = transcript.flatMap((message) =>
      message.role === 'assistant' ? message.content.filter((part) => part.type === 'reasoning').map((part) => part.text) : [],
    );
    expect(reasoning).toEqual(['need the log', 'it is flaky', 'check again', 'still flaky']);
    const visible = transcript.flatMap((message) =>
      message.role === 'assistant' ? message.content.filter((part) => part.type === 'text').map((part) => part.text) : [],
    );
    expect(visible.join('')).not.toContain('<think>');
  });

  it('an unknown host serving a strict family needs no configuration', () => {
    const adapter = createOpenAICompatibleAdapter({
      provider: 'my-gpu-box',
      model: 'deepseek-ai/DeepSeek-V3.2-Exp',
      baseURL: 'http://127.0.0.1:1/v1',
      apiKey: 'k',
    });
    expect(adapter.profile).toMatchObject({
      family: 'deepseek-thinking',
      sendReasoningAs: 'reasoning_content',
      reasoningRequiredOnToolCalls: true,
      retention: 'tool-episodes',
    });
    expect(String(adapter.profile?.unverified)).toContain('host "my-gpu-box" has no row');
  });

  it.each([
    ['deepseek-thinking', 'acme-cloud', 'The `reasoning_content` in the thinking mode must be passed back to the API.'],
    ['kimi-k2', 'together', 'thinking is enabled but reasoning_content is missing in assistant tool call message at index 2'],
    ['mimo', 'xiaomi', 'Param Incorrect'],
  ] as const)('without the family rule, %s on %s meets its real refusal', async (family, host, text) => {
    const { server, adapter } = await setup(family, host, { reasoningRequiredOnToolCalls: false, retention: 'episode' });
    await expect(twoToolEpisodes(server, adapter)).rejects.toThrow(text);
  });

  it('OpenCode Zen refuses a later assistant message without the field once one carried it', async () => {
    const { server, adapter } = await setup('deepseek-v4', 'opencode', { reasoningOnLaterAssistants: false });
    await expect(twoToolEpisodes(server, adapter)).rejects.toThrow(
      'Error from provider (DeepSeek): The `reasoning_content` in the thinking mode must be passed back to the API.',
    );
    const refused = server.requests.at(-1)?.body as { messages: Record<string, unknown>[] };
    const assistants = refused.messages.filter((message) => message.role === 'assistant');
    expect(assistants.map((message) => 'reasoning_content' in message)).toEqual([true, false]);
  });

  it('a user row in front of the built-in families overrides one', () => {
    const families = [{ ...findModelFamily('qwq-32b')!, name: 'my-qwq', retention: 'all' as const }];
    const adapter = createOpenAICompatibleAdapter({
      provider: 'siliconflow',
      model: 'Qwen/QwQ-32B',
      apiKey: 'k',
      families,
    });
    expect(adapter.profile).toMatchObject({ family: 'my-qwq', retention: 'all' });
  });
});

describe('docs/provider-hosts.md', () => {
  it('lists every built-in family and host row with its source', async () => {
    const { readFile } = await import('node:fs/promises');
    const { compatibleHosts } = await import('../../packages/providers/src/profiles/compatible-hosts.js');
    const { modelFamilies } = await import('../../packages/providers/src/profiles/model-families.js');
    const doc = await readFile(new URL('../../docs/provider-hosts.md', import.meta.url), 'utf8');
    const rowOf = (name: string) => doc.split('\n').find((line) => line.startsWith(`| ${name} `));
    for (const family of modelFamilies) expect(rowOf(family.name), family.name).toBeDefined();
    for (const host of ['siliconflow', 'deepinfra', 'together', 'fireworks', 'nebius', 'sambanova', 'xiaomi', 'venice', 'longcat']) {
      expect(rowOf(host), host).toContain(compatibleHosts[host as keyof typeof compatibleHosts].baseURL.replace(/^https?:\/\//, ''));
    }
    expect(rowOf('opencode (Zen)')).toContain(compatibleHosts.opencode.baseURL.replace('https://', ''));
  });
});
