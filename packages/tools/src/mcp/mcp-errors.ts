/**
 * Errors of MCP tool sources. Failures of a single tool call never throw out of the
 * agent loop: they become error tool results. These are the failures of the
 * connection itself (the server does not start, does not answer, lists tools that
 * cannot be offered), raised to the code that connects.
 */
import { EpisodicError } from '@episodic/core';

/** Why an MCP server could not be used. */
export type McpServerErrorCode =
  /** The server did not start or did not complete the MCP handshake. */
  | 'mcp_connect_failed'
  /** `tools/list` failed. */
  | 'mcp_list_failed'
  /** Two of the server's tools have the same provider-safe name. */
  | 'mcp_tool_name_clash'
  /** The connection was closed before the request. */
  | 'mcp_closed'
  /** A tool's result was larger than the transport reads in one message (the connection is reopened). */
  | 'mcp_result_too_large';

/** An MCP server could not be used; the message names the server and what to check. */
export class McpServerError extends EpisodicError {
  declare readonly code: McpServerErrorCode;

  constructor(code: McpServerErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
