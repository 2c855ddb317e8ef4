/**
 * One MCP tool as an {@link AgentTool}: arguments read back from a provider's
 * normalised shape, a `tools/call` under the loop's signal (aborting sends the
 * server `notifications/cancelled`), and the result as text, capped.
 *
 * Failures reach the model as error tool results, as for every tool: a result with
 * `isError` keeps its content; a protocol error (unknown tool, invalid params, a
 * closed connection) is thrown with a message naming the server, and the loop's
 * executor turns it into the error result.
 */
import type { AgentTool, ToolContext, ToolOutput } from '@episodic/core';
import { restoreNormalizedArguments, shortenText } from '@episodic/core/internal';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { McpServerError } from './mcp-errors.js';
import { type McpContentBlock, toolResultText } from './mcp-content.js';
import type { McpToolSpec } from './mcp-tool-spec.js';

/** Longest delay `setTimeout` honours; the loop's own timeout (via the signal) is what ends a call. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How the tools of one connection call their server. */
export interface McpCallSettings {
  /** The server's name, for messages. */
  server: string;
  /** Per-call timeout given to the loop (it aborts the call's signal); default the agent's. */
  timeoutMs: number | undefined;
  /** Results longer than this many characters keep their head and tail. */
  maxResultChars: number;
  /** Tells whether the connection is still open. */
  isClosed: () => boolean;
}

/** What a `tools/call` answers (also the legacy `toolResult` form). */
export type McpCallResult = Awaited<ReturnType<Client['callTool']>>;

/** What calls the server's tools: the connection, which reopens itself after a transport overflow. */
export interface McpToolCaller {
  callTool(remoteName: string, input: Record<string, unknown>, options: RequestOptions): Promise<McpCallResult>;
}

/** Builds the agent tool for one listed MCP tool. */
export function mcpAgentTool(connection: McpToolCaller, listed: McpToolSpec, settings: McpCallSettings): AgentTool {
  const { spec, remoteName } = listed;
  return {
    spec,
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
    async execute(args: unknown, context: ToolContext): Promise<ToolOutput> {
      if (settings.isClosed()) {
        throw new Error(`the connection to MCP server "${settings.server}" is closed; the tool cannot run.`);
      }
      const input = restoreNormalizedArguments(spec.inputSchema, args ?? {});
      let result: McpCallResult;
      try {
        result = await connection.callTool(remoteName, input as Record<string, unknown>, {
          signal: context.signal,
          timeout: settings.timeoutMs ?? MAX_TIMER_MS,
        });
      } catch (error) {
        // A typed error already names the server and the tool.
        if (context.signal.aborted || error instanceof McpServerError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`MCP server "${settings.server}" answered with an error: ${message}`, { cause: error });
      }
      const content = (result.content ?? []) as McpContentBlock[];
      const text = toolResultText(content, result.structuredContent) || '(the tool returned no content)';
      const capped = shortenText(text, settings.maxResultChars, (part) => part.length);
      return { content: capped, isError: result.isError === true };
    },
  };
}
