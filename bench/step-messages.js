/**
 * Text and the step the loop and stores benchmarks append: an assistant message
 * with reasoning and a tool call, and the tool's result (about 2.5 KB of JSON).
 */
const words = 'the build failed because a test timed out while waiting for the fixture server to start on port'.split(' ');

/** Deterministic English-like text of about `length` characters. */
export function text(seed, length) {
  let out = '';
  for (let index = 0; out.length < length; index += 1) out += `${words[(seed * 7 + index * 13) % words.length]} `;
  return out.trim();
}

/** Step `step`: two messages. */
export function stepMessages(step) {
  const id = `call_${step}`;
  return [
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: text(step, 600) },
        { type: 'tool-call', id, name: 'read_log', args: { run: step } },
      ],
      usage: { inputTokens: 12_000, outputTokens: 300 },
    },
    { role: 'tool', toolCallId: id, toolName: 'read_log', content: text(step, 1500), isError: false },
  ];
}
