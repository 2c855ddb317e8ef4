import { describe, expect, it } from 'vitest';
import { argumentsText, callProviderData } from './tool-arguments.js';

const model = { provider: 'openai', id: 'gpt-5' };

describe('tool-call arguments as the model wrote them', () => {
  it("keeps the model's own string only when it differs from JSON.stringify, and sends it back", () => {
    const raw = '{"location": "San Francisco"}';
    const args = JSON.parse(raw) as unknown;
    const providerData = callProviderData(model, raw, args);
    expect(providerData).toEqual({ provider: 'openai', model: 'gpt-5', arguments: raw });
    expect(argumentsText({ type: 'tool-call', id: 'c', name: 'f', args, providerData })).toBe(raw);
    expect(callProviderData(model, '{"a":1}', { a: 1 })).toBeUndefined();
    expect(callProviderData(model, '  ', {})).toBeUndefined();
  });

  it('serialises the arguments when an application changed them after the call', () => {
    const providerData = { provider: 'openai', model: 'gpt-5', arguments: '{"location": "San Francisco"}' };
    const edited = { type: 'tool-call' as const, id: 'c', name: 'f', args: { location: 'Paris' }, providerData };
    expect(argumentsText(edited)).toBe('{"location":"Paris"}');
  });
});
