import { EpisodicError } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { episodicToolName, mcpToolSpec, mcpToolSpecs } from './mcp-tool-spec.js';

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { path: { type: 'string', description: 'File path' }, head: { type: 'number' } },
  required: ['path'],
  additionalProperties: false,
};

/** The same schema with every object's keys in reverse order, as another listing might send it. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([key, item]) => [key, reversed(item)]));
}

describe('MCP tool specs', () => {
  it('are byte-identical whatever order the server writes its JSON in', () => {
    const first = mcpToolSpec({ name: 'read_file', description: 'Reads a file.', inputSchema: schema });
    const second = mcpToolSpec({
      name: 'read_file',
      description: 'Reads a file.',
      inputSchema: reversed(schema) as Record<string, unknown>,
    });
    expect(JSON.stringify(second.spec)).toBe(JSON.stringify(first.spec));
    expect(first.spec.inputSchema).not.toHaveProperty('$schema');
    expect(Object.keys(first.spec.inputSchema)).toEqual(['additionalProperties', 'properties', 'required', 'type']);
    expect(first.spec.inputSchema.required).toEqual(['path']);
  });

  it('sorts a listing by name and makes names provider-safe, keeping the server name for calls', () => {
    const specs = mcpToolSpecs(
      [
        { name: 'search.files', inputSchema: { type: 'object' } },
        { name: 'Archive', title: 'Archive a run', inputSchema: { type: 'object' } },
      ],
      'fs_',
    );
    expect(specs.map((listed) => [listed.spec.name, listed.remoteName])).toEqual([
      ['fs_Archive', 'Archive'],
      ['fs_search_files', 'search.files'],
    ]);
    expect(specs[0]!.spec.description).toBe('Archive a run');
    expect(episodicToolName('9lives')).toBe('_9lives');
    expect(episodicToolName('x'.repeat(80))).toHaveLength(64);
  });

  it('refuses two tools whose safe names collide, naming both', () => {
    const clash = () =>
      mcpToolSpecs([
        { name: 'a.b', inputSchema: { type: 'object' } },
        { name: 'a_b', inputSchema: { type: 'object' } },
      ]);
    expect(clash).toThrow(/"a\.b" and "a_b" both become "a_b"|"a_b" and "a\.b" both become "a_b"/);
    try {
      clash();
    } catch (error) {
      expect(EpisodicError.isInstance(error) && error.code).toBe('mcp_tool_name_clash');
    }
  });

  it('notes a schema the Gemini normaliser cannot express', () => {
    const recursive = {
      type: 'object',
      properties: { tree: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
    };
    expect(mcpToolSpec({ name: 'tree', inputSchema: recursive }).geminiProblem).toMatch(/recurs/i);
    expect(mcpToolSpec({ name: 'flat', inputSchema: schema }).geminiProblem).toBeUndefined();
  });
});
