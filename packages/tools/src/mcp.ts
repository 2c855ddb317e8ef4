/**
 * `@episodic/tools/mcp`: tools from MCP servers, and Episodic tools served over MCP.
 * Needs `@modelcontextprotocol/sdk` (an optional peer dependency of @episodic/tools:
 * install it to use this entry point).
 *
 * This is a public API: every name below is listed in `api/tools-mcp.api.md`.
 */
export { connectMcpServer, McpConnection } from './mcp/connect-mcp-server.js';
export type { McpConnectOptions, McpHttpServer, McpServerOptions, McpStdioServer } from './mcp/connect-mcp-server.js';
export { McpServerError } from './mcp/mcp-errors.js';
export type { McpServerErrorCode } from './mcp/mcp-errors.js';
export { McpToolServer } from './mcp/mcp-tool-server.js';
export type { McpToolServerOptions } from './mcp/mcp-tool-server.js';
export type { McpHttpHandlerOptions } from './mcp/mcp-http-handler.js';
