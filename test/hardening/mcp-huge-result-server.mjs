// A hostile MCP server over stdio (the SDK's own Server class): its `dump` tool
// answers with `bytes` characters of text, so one JSON-RPC line can exceed the
// client transport's 10 MiB read buffer. Each start writes "started" to stderr.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'huge-results', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    {
      name: 'dump',
      description: 'Returns that many characters.',
      inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } }, required: ['bytes'] },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: 'text', text: 'x'.repeat(Number(request.params.arguments?.bytes ?? 0)) }],
}));
await server.connect(new StdioServerTransport());
process.stderr.write('started\n');
