import { describe, expect, it } from 'vitest';
import { escapeControl } from './control-safe.js';

describe('escapeControl', () => {
  it('writes control characters as \\uXXXX and keeps tab, newline and printable text', () => {
    expect(escapeControl('a\u001b[2Jb\u0007\r\u009b\tc\nd é 😀')).toBe('a\\u001b[2Jb\\u0007\\u000d\\u009b\tc\nd é 😀');
  });

  it('leaves JSON meaning the same (JSON.stringify keeps DEL and C1 characters raw)', () => {
    const value = { text: 'x\u007f\u0085\u001by' };
    expect(JSON.parse(escapeControl(JSON.stringify(value)))).toEqual(value);
  });
});
