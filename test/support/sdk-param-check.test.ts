/**
 * The wire-body check itself: an OpenAI body is checked against both `openai` majors the
 * peer range takes, the installed 6 and 7 through the `openai7` alias, each under its own label.
 */
import { describe, expect, it } from 'vitest';
import { sdkParamErrors } from './sdk-param-check.js';

const chat = { model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] };
const responses = { model: 'gpt-5', stream: true, input: [{ role: 'user', content: 'hi' }] };

describe('sdkParamErrors on OpenAI bodies', () => {
  it('passes a Responses and a Chat body that both majors take', () => {
    expect(
      sdkParamErrors([
        { kind: 'openai-responses', body: responses, label: 'responses' },
        { kind: 'openai-chat', body: chat, label: 'chat' },
      ]),
    ).toEqual([]);
  }, 60_000);

  it('names a field neither major has once per major', () => {
    const errors = sdkParamErrors([{ kind: 'openai-responses', body: { ...responses, reasoning_effort: 'low' }, label: 'bad' }]);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^bad \(line \d+\): .*reasoning_effort/s);
    expect(errors[1]).toMatch(/^bad \(openai 7\) \(line \d+\): .*reasoning_effort/s);
  }, 60_000);

  it("checks against openai 7's own types: service_tier 'fast' is only in 7's Chat params", () => {
    const errors = sdkParamErrors([{ kind: 'openai-chat', body: { ...chat, service_tier: 'fast' }, label: 'fast' }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^fast \(line \d+\): Type '"fast"' is not assignable/);
  }, 60_000);
});
