import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { maxCacheBreakpoints, placeCacheBreakpoints } from './anthropic-cache-control.js';

const marked = (messages: MessageParam[]) =>
  messages.flatMap((message, index) =>
    typeof message.content === 'string'
      ? []
      : message.content.flatMap((block, position) =>
          'cache_control' in block && block.cache_control ? [`${index}.${position}.${block.type}`] : [],
        ),
  );

function conversation(): MessageParam[] {
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
  return [
    { role: 'user', content: [{ type: 'text', text: 'past question' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'past answer' }] },
    { role: 'user', content: [{ type: 'text', text: 'current question' }] },
    ...step('a'),
    ...step('b'),
  ];
}

describe('placeCacheBreakpoints', () => {
  it('marks the prefix, newest message, end of history and previous step, at most 4', () => {
    const messages = conversation();
    const system = [{ type: 'text' as const, text: 'sys' }];
    const placed = placeCacheBreakpoints({ system, tools: undefined, messages }, '5m');
    expect(placed).toBeLessThanOrEqual(maxCacheBreakpoints);
    expect(system[0]).toHaveProperty('cache_control', { type: 'ephemeral' });
    expect(marked(messages)).toEqual(['1.0.text', '4.0.tool_result', '6.0.tool_result']);
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
    expect(marked(messages)).toEqual(['1.0.text', '4.0.tool_result', '6.0.tool_result']);
  });

  it('puts suggested breakpoints right after the newest one, within the limit of 4', () => {
    const messages = conversation();
    const tools = [{ name: 'x', input_schema: { type: 'object' as const } }];
    placeCacheBreakpoints({ system: undefined, tools, messages }, '1h', [0, 2, 3]);
    expect(tools[0]).toHaveProperty('cache_control', { type: 'ephemeral', ttl: '1h' });
    expect(marked(messages)).toEqual(['0.0.text', '2.0.text', '6.0.tool_result']);
  });
});
