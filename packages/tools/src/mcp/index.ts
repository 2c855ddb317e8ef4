/**
 * MCP tool sources: connect to a Model Context Protocol server and use its tools,
 * or serve Episodic tools to MCP clients.
 */
export {
  connectMcpServer,
  type McpConnectOptions,
  McpConnection,
  type McpHttpServer,
  type McpServerOptions,
  type McpStdioServer,
} from './connect-mcp-server.js';
export { base64Bytes, describeContentBlock, type McpContentBlock, toolResultText } from './mcp-content.js';
export { McpServerError, type McpServerErrorCode } from './mcp-errors.js';
export { McpToolServer, type McpToolServerOptions } from './mcp-tool-server.js';
export type { McpHttpHandlerOptions } from './mcp-http-handler.js';
export { canonicalJson, episodicToolName, type McpToolDefinition, mcpToolSpec, mcpToolSpecs, type McpToolSpec } from './mcp-tool-spec.js';
