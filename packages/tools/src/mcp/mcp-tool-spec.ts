/**
 * An MCP tool's definition as an Episodic {@link ToolSpec}: a name every provider
 * accepts, a description, and the input JSON Schema in one canonical form.
 *
 * Tool definitions sit in the cached prompt prefix, so they must be byte-identical
 * from call to call and from one `tools/list` to the next: the schema is written
 * with sorted keys (a server that reorders its JSON between listings changes
 * nothing), computed once per listing, and the tools are sorted by name.
 */
import type { ToolSpec } from '@episodic/core';
import { type JsonSchema, toGeminiSchema } from '@episodic/core/schema';
import { McpServerError } from './mcp-errors.js';
import { isJsonObject } from '@episodic/core/internal';

/** The fields of an MCP `Tool` read here. */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** A listed MCP tool as Episodic sees it. */
export interface McpToolSpec {
  spec: ToolSpec;
  /** The name the server knows the tool by (sent in `tools/call`). */
  remoteName: string;
  /** Why the schema has no Gemini form, when it has none (the Google adapter would refuse the tool). */
  geminiProblem: string | undefined;
}

// What every provider accepts as a tool name (see defineTool).
const NAME_LENGTH = 64;

/** The provider-safe name of an MCP tool: `prefix + name`, other characters as `_`, at most 64. */
export function episodicToolName(name: string, prefix = ''): string {
  let safe = `${prefix}${name}`.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (!/^[a-zA-Z_]/.test(safe)) safe = `_${safe}`;
  return safe.slice(0, NAME_LENGTH);
}

/** Turns a listed MCP tool into a spec, once; see the file comment. */
export function mcpToolSpec(tool: McpToolDefinition, prefix = ''): McpToolSpec {
  const depth = nestingDepth(tool.inputSchema, MAX_SCHEMA_DEPTH);
  if (depth > MAX_SCHEMA_DEPTH) {
    throw new McpServerError(
      'mcp_list_failed',
      `MCP tool "${tool.name}" has an input schema nested deeper than ${MAX_SCHEMA_DEPTH} levels; no model takes such a schema. ` +
        'Fix the schema of that tool on the server.',
    );
  }
  const { $schema: _dropped, ...schema } = tool.inputSchema;
  const inputSchema = canonicalJson({ type: 'object', ...schema }) as JsonSchema;
  const spec: ToolSpec = {
    name: episodicToolName(tool.name, prefix),
    description: tool.description ?? tool.title ?? `The ${tool.name} tool of an MCP server.`,
    inputSchema,
  };
  return {
    spec,
    remoteName: tool.name,
    geminiProblem: geminiProblem(inputSchema),
  };
}

/** Specs for a whole listing, sorted by name; throws when two tools end up with one name. */
export function mcpToolSpecs(tools: readonly McpToolDefinition[], prefix = ''): McpToolSpec[] {
  const specs = tools.map((tool) => mcpToolSpec(tool, prefix)).sort((a, b) => compare(a.spec.name, b.spec.name));
  for (let index = 1; index < specs.length; index += 1) {
    const [previous, current] = [specs[index - 1]!, specs[index]!];
    if (previous.spec.name === current.spec.name) {
      throw new McpServerError(
        'mcp_tool_name_clash',
        `MCP tools "${previous.remoteName}" and "${current.remoteName}" both become "${current.spec.name}" ` +
          'once their names are made provider-safe; rename one of them on the server.',
      );
    }
  }
  return specs;
}

/** Deepest nesting of a listed schema: the walks below recurse, and a hostile server could nest without end. */
export const MAX_SCHEMA_DEPTH = 100;

/** How deep `value` nests (objects and arrays), counted without recursion, stopping past `limit`. */
function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** JSON with object keys sorted at every level (arrays keep their order). */
export function canonicalJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (!isJsonObject(value)) return value;
  const keys = Object.keys(value).sort(compare);
  return Object.fromEntries(keys.map((key) => [key, canonicalJson(value[key])]));
}

function geminiProblem(schema: JsonSchema): string | undefined {
  try {
    toGeminiSchema(schema);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

// Code-unit order, not the locale's: the same bytes on every machine.
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
