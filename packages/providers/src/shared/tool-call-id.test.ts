import { describe, expect, it } from 'vitest';
import { anthropicToolCallIdRule, normalizeToolCallId } from './tool-call-id.js';

describe('normalizeToolCallId', () => {
  const valid = /^[a-zA-Z0-9_-]{1,64}$/;

  it('keeps ids the rule accepts', () => {
    expect(normalizeToolCallId('toolu_01ABC-x', anthropicToolCallIdRule)).toBe('toolu_01ABC-x');
  });

  it('rewrites invalid and overlong ids into valid, distinct, stable ids', () => {
    const ids = ['call.1', 'call:1', 'fc/1', 'x'.repeat(65), 'x'.repeat(66), ''];
    const normalized = ids.map((id) => normalizeToolCallId(id, anthropicToolCallIdRule));
    for (const id of normalized) expect(id).toMatch(valid);
    expect(new Set(normalized).size).toBe(ids.length);
    expect(ids.map((id) => normalizeToolCallId(id, anthropicToolCallIdRule))).toEqual(normalized);
  });
});
