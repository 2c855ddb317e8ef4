/**
 * @episodic/tools: typed tools from zod schemas, JSON Schema normalisers for OpenAI
 * strict mode and Gemini, and built-in tools confined to a root directory. MCP tool
 * sources and the MCP tool server are in `@episodic/tools/mcp` (the MCP SDK is an
 * optional peer dependency, needed only there).
 *
 * This is the public API: every name below is chosen on purpose and listed in
 * `api/tools.api.md`, which a test compares with the built package.
 */

// Typed tools: defineTool and the errors a tool's caller and author meet.
export { defineTool } from './define-tool.js';
export type { DefinedTool, ToolDefinition, ToolResult } from './define-tool.js';
export { ToolInputError, ToolUsageError, UnsupportedSchemaError } from './tool-errors.js';
export type { ToolInputIssue } from './tool-errors.js';

// Schema normalisers: JSON Schema rewritten and checked for OpenAI strict mode and Gemini
// (they live in @episodic/core/schema, shared with the adapters that send them).
export { checkGeminiSchema, checkOpenAIStrictSchema, toGeminiSchema, toOpenAIStrictSchema } from '@episodic/core/schema';
export type { JsonSchema, SchemaViolation } from '@episodic/core/schema';

// Built-in tools, each confined to a root directory.
export { fileTools } from './file-tools.js';
export type { FileToolsOptions } from './file-tools.js';
export { readFileTool } from './read-file.js';
export type { ReadFileToolOptions } from './read-file.js';
export { listFilesTool } from './list-files.js';
export type { ListFilesToolOptions } from './list-files.js';
export { searchTextTool } from './search-text.js';
export type { SearchTextToolOptions } from './search-text.js';
export { runCommandTool } from './run-command.js';
export type { RunCommandToolOptions } from './run-command.js';
export { DEFAULT_SECRET_FILES } from './secret-files.js';
export type { SecretFilesOption } from './secret-files.js';

// Building blocks for your own tools: root confinement, a safe child environment, bounded regexes.
export { PathEscapeError, resolveInsideRoot } from './root-path.js';
export type { RootedPath } from './root-path.js';
export { childEnvironment } from './run-command.js';
export { BoundedRegex } from './bounded-regex.js';
