import { describe, expect, it } from 'vitest';
import { ProgressPrinter } from './progress.js';

describe('ProgressPrinter', () => {
  it('never writes control characters from the model, the user or a tool', () => {
    const written: string[] = [];
    const printer = new ProgressPrinter({ write: (text) => written.push(text), color: false, providerCache: false });
    const hostile = 'a\u001b]0;pwned\u0007\u001b[2J\u009bb';
    printer.onEvent({
      type: 'episode-start',
      sessionId: 's',
      input: { role: 'user', content: `question ${hostile}` },
      resumed: false,
      model: { provider: 'scripted', id: 'scripted-model' },
    });
    printer.onEvent({ type: 'reasoning-delta', step: 1, text: `think ${hostile}` });
    printer.onEvent({ type: 'tool-call', step: 1, call: { type: 'tool-call', id: 'c1', name: `x${hostile}`, args: {} } });
    printer.onEvent({
      type: 'tool-result',
      step: 1,
      durationMs: 3,
      result: { role: 'tool', toolCallId: 'c1', toolName: `x${hostile}`, content: `failed ${hostile}`, isError: true },
    });
    printer.onEvent({ type: 'text-delta', step: 2, text: `answer ${hostile}\nline two` });
    printer.onEvent({ type: 'warning', step: 2, message: `careful ${hostile}` });
    const output = written.join('');
    expect(output).not.toMatch(/[^\t\n\u0020-\u007e\u00a0-\uffff]/);
    expect(output).toContain('answer a\\u001b]0;pwned\\u0007\\u001b[2J\\u009bb\nline two');
  });
});
