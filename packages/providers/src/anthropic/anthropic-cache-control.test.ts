import type { BetaMessageParam as MessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { describe, expect, it } from 'vitest';
import { cacheLookbackBlocks, maxCacheBreakpoints, placeCacheBreakpoints } from './anthropic-cache-control.js';

const marked = (messages: MessageParam[]) =>
  messages.flatMap((message, index) =>
    typeof message.content === 'string'
      ? []
      : (message.content ?? []).flatMap((block, position) =>
          'cache_control' in block && block.cache_control ? [`${index}.${position}.${block.type}`] : [],
        ),
  );

const step = (id: string): MessageParam[] => [
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 't', signature: 's' },
      { type: 'tool_use', id, name: 'x', input: {} },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'r' }] },
];

const question = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });

function conversation(): MessageParam[] {
  return [
    question('past question'),
    { role: 'assistant', content: [{ type: 'text', text: 'past answer' }] },
    question('current question'),
    ...step('a'),
    ...step('b'),
  ];
}

/** A past episode of `steps` tool steps (its thinking already stripped), then a new question. */
function afterLongEpisode(steps: number): MessageParam[] {
  const stripped = Array.from({ length: steps }, (_, index) => step(`s${index}`))
    .flat()
    .map(
      (message): MessageParam =>
        Array.isArray(message.content)
          ? ({ ...message, content: message.content.filter((block) => block.type !== 'thinking') } as MessageParam)
          : message,
    );
  return [
    question('first question'),
    ...stripped,
    { role: 'assistant', content: [{ type: 'text', text: 'answer' }] },
    question('next question'),
  ];
}

describe('placeCacheBreakpoints', () => {
  it('marks the prefix, the newest message and the current question; the newest reaches the previous step', () => {
    const messages = conversation();
    const system = [{ type: 'text' as const, text: 'sys' }];
    const placed = placeCacheBreakpoints({ system, tools: undefined, messages }, '5m');
    expect(placed).toBeLessThanOrEqual(maxCacheBreakpoints);
    expect(system[0]).toHaveProperty('cache_control', { type: 'ephemeral' });
    expect(marked(messages)).toEqual(['2.0.text', '6.0.tool_result']);
  });

  it('never marks a thinking block or an empty text block', () => {
    const messages: MessageParam[] = [
      ...conversation(),
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 't', signature: 's' },
          { type: 'text', text: '' },
        ],
      },
    ];
    placeCacheBreakpoints({ system: undefined, tools: undefined, messages }, '1h');
    expect(marked(messages)).toEqual(['2.0.text', '6.0.tool_result']);
  });

  it('adds the packer’s suggestions that no breakpoint reaches, within the limit of 4', () => {
    const messages = [...afterLongEpisode(12), ...step('c')];
    const tools = [{ name: 'x', input_schema: { type: 'object' as const } }];
    placeCacheBreakpoints({ system: undefined, tools, messages }, '1h', [0]);
    expect(tools[0]).toHaveProperty('cache_control', { type: 'ephemeral', ttl: '1h' });
    expect(marked(messages)).toEqual(['0.0.text', `${messages.length - 3}.0.text`, `${messages.length - 1}.0.tool_result`]);
  });

  it('on an episode’s first call, marks the previous question when the past episode left more than 20 blocks', () => {
    const short = afterLongEpisode(3);
    placeCacheBreakpoints({ system: undefined, tools: undefined, messages: short }, '5m');
    expect(marked(short)).toEqual([`${short.length - 1}.0.text`]);
    const long = afterLongEpisode(cacheLookbackBlocks);
    placeCacheBreakpoints({ system: undefined, tools: undefined, messages: long }, '5m');
    expect(marked(long)).toEqual(['0.0.text', `${long.length - 1}.0.text`]);
  });

  it('keeps a step reachable when one step adds more than 20 blocks (many parallel calls)', () => {
    const calls = Array.from({ length: 12 }, (_, index) => `p${index}`);
    const messages: MessageParam[] = [
      question('go'),
      ...step('a'),
      { role: 'assistant', content: calls.map((id) => ({ type: 'tool_use' as const, id, name: 'x', input: {} })) },
      { role: 'user', content: calls.map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'r' })) },
    ];
    placeCacheBreakpoints({ system: undefined, tools: undefined, messages }, '5m');
    expect(marked(messages)).toEqual(['0.0.text', '2.0.tool_result', '4.11.tool_result']);
  });
});
