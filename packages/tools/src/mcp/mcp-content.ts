/**
 * How an MCP tool result's content reaches the transcript.
 *
 * Transcript v1 tool results are text only, so every content block becomes text
 * here: text as it is, and binary content (images, audio, blobs) as a one-line
 * description such as `[image image/png, 1234 bytes]`, so the model learns that the
 * tool produced it without base64 filling its context.
 *
 * This is the one place that changes when transcript v1.1 (tool results with
 * content parts) lands: {@link toolResultText} then returns parts, with images as
 * image parts the providers can send, and the descriptions stay for what has no part.
 *
 * @see https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool-result
 */

/** One MCP content block, as the protocol defines it (only the fields read here). */
export type McpContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: string; [field: string]: unknown };

/** The text of a tool result: its blocks described in order, one block per paragraph. */
export function toolResultText(content: readonly McpContentBlock[], structured?: unknown): string {
  if (content.length === 0) return structured === undefined ? '' : JSON.stringify(structured);
  return content.map(describeContentBlock).join('\n\n');
}

/** One content block as text (binary content as a short description, never its bytes). */
export function describeContentBlock(block: McpContentBlock): string {
  switch (block.type) {
    case 'text':
      return String(block.text);
    case 'image':
    case 'audio': {
      const { mimeType, data } = block as { mimeType: string; data: string };
      return `[${block.type} ${mimeType}, ${base64Bytes(data)} bytes]`;
    }
    case 'resource_link': {
      const link = block as Extract<McpContentBlock, { type: 'resource_link' }>;
      const details = [link.name, link.mimeType, link.description].filter(Boolean).join(', ');
      return `[resource link ${link.uri}${details ? ` (${details})` : ''}]`;
    }
    case 'resource': {
      const { resource } = block as Extract<McpContentBlock, { type: 'resource' }>;
      const type = resource.mimeType ? ` ${resource.mimeType}` : '';
      if (typeof resource.text === 'string') return `[resource ${resource.uri}${type}]\n${resource.text}`;
      return `[resource ${resource.uri}${type}, ${base64Bytes(resource.blob ?? '')} bytes]`;
    }
    default:
      return `[${block.type} content]`;
  }
}

/** Decoded size of base64 text, without decoding it. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}
