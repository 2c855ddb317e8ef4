import { describe, expect, it } from 'vitest';
import { base64Bytes, describeContentBlock, toolResultText } from './mcp-content.js';

const png = Buffer.alloc(1234, 7).toString('base64');

describe('MCP content as tool-result text (the seam transcript v1.1 replaces)', () => {
  it('keeps text and describes binary content by type, media type and decoded size', () => {
    const text = toolResultText([
      { type: 'text', text: 'Screenshot of the failing page:' },
      { type: 'image', data: png, mimeType: 'image/png' },
      { type: 'audio', data: Buffer.alloc(10).toString('base64'), mimeType: 'audio/wav' },
    ]);
    expect(text).toBe('Screenshot of the failing page:\n\n[image image/png, 1234 bytes]\n\n[audio audio/wav, 10 bytes]');
    expect(text).not.toContain(png.slice(0, 40));
  });

  it('quotes embedded text resources and describes blobs and links', () => {
    expect(describeContentBlock({ type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' } }))
      .toBe('[resource file:///a.txt text/plain]\nhello');
    expect(describeContentBlock({ type: 'resource', resource: { uri: 'file:///a.bin', blob: 'AAAA' } }))
      .toBe('[resource file:///a.bin, 3 bytes]');
    expect(describeContentBlock({ type: 'resource_link', uri: 'file:///log.txt', name: 'log.txt', mimeType: 'text/plain' }))
      .toBe('[resource link file:///log.txt (log.txt, text/plain)]');
    expect(describeContentBlock({ type: 'hologram' })).toBe('[hologram content]');
  });

  it('falls back to the structured content when there are no blocks', () => {
    expect(toolResultText([], { passed: 3 })).toBe('{"passed":3}');
    expect(toolResultText([])).toBe('');
  });

  it('counts base64 padding and ignores line breaks', () => {
    for (const size of [0, 1, 2, 3, 100, 1001]) {
      const encoded = Buffer.alloc(size).toString('base64');
      expect(base64Bytes(encoded)).toBe(size);
      expect(base64Bytes(encoded.replace(/(.{8})/g, '$1\n'))).toBe(size);
    }
  });
});
