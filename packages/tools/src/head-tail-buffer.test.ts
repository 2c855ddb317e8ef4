import { describe, expect, it } from 'vitest';
import { HeadTailBuffer } from './head-tail-buffer.js';

describe('HeadTailBuffer', () => {
  it('keeps everything that fits', () => {
    const buffer = new HeadTailBuffer(100);
    buffer.push(Buffer.from('hello '));
    buffer.push(Buffer.from('world'));
    expect(buffer.toString()).toBe('hello world');
    expect(buffer.totalBytes).toBe(11);
  });

  it('keeps the head and the tail across chunks and says how much was cut', () => {
    const buffer = new HeadTailBuffer(10);
    for (const chunk of ['abc', 'defgh', 'ijklmnop', 'qrstuvwxyz']) buffer.push(Buffer.from(chunk));
    // 4 bytes of head (40%), 6 of tail, 26 - 10 = 16 cut.
    expect(buffer.toString()).toBe('abcd\n[... 16 bytes cut from the middle of the output ...]\nuvwxyz');
  });

  it('does not show broken characters at the cuts', () => {
    const buffer = new HeadTailBuffer(10);
    buffer.push(Buffer.from('ééééééééééé'));
    expect(buffer.toString()).not.toContain('\uFFFD');
  });
});
