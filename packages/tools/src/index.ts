/**
 * @episodic/tools: typed tools from zod schemas, JSON Schema normalisers for OpenAI
 * strict mode and Gemini, and built-in tools confined to a root directory.
 */

export { BoundedRegex } from './bounded-regex.js';
export { type DefinedTool, defineTool, describeIssues, type ToolDefinition, type ToolResult } from './define-tool.js';
export { type FileToolsOptions, fileTools } from './file-tools.js';
export { checkGeminiSchema, toGeminiSchema } from './gemini-schema.js';
export { HeadTailBuffer } from './head-tail-buffer.js';
export { toolInputSchema } from './json-schema.js';
export type { JsonSchema, SchemaViolation } from './json-schema-node.js';
export { type ListFilesToolOptions, listFilesTool } from './list-files.js';
export { recordAsEntries, restoreNormalizedArguments } from './normalized-arguments.js';
export { checkOpenAIStrictSchema, OPENAI_STRICT_LIMITS, toOpenAIStrictSchema } from './openai-strict-schema.js';
export { type ReadFileInput, type ReadFileToolOptions, readFileTool } from './read-file.js';
export { isInside, PathEscapeError, type RootedPath, resolveInsideRoot, toRelative } from './root-path.js';
export {
  BASE_ENVIRONMENT,
  childEnvironment,
  type RunCommandInput,
  type RunCommandToolOptions,
  runCommandTool,
} from './run-command.js';
export { MATCH_WINDOW, type SearchTextInput, type SearchTextToolOptions, searchTextTool } from './search-text.js';
export { ToolInputError, type ToolInputIssue, ToolUsageError, UnsupportedSchemaError } from './tool-errors.js';
export { DEFAULT_SKIPPED_DIRECTORIES, type WalkEntry, type WalkOptions, walkDirectory } from './walk-directory.js';
export * from './secret-files.js';
export * from './mcp/index.js';
