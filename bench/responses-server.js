/**
 * The loopback OpenAI Responses server of the first-request and install benches: it
 * answers every `POST .../responses` with one minimal text answer (streamed when the
 * request asks for a stream, as Episodic's adapter does; plain JSON otherwise, as the
 * AI SDK's `generateText` asks), allows any origin (a page served from another port
 * calls it as a web page calls api.openai.com, preflight included), and records when
 * each model request arrived and what it carried, so a bench can check the request
 * it timed.
 */
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';

/** The text every answer carries; a run that does not print or return it failed. */
export const ANSWER = 'The fixture server did not start.';

const response = { id: 'resp_1', object: 'response', created_at: 1, model: 'gpt-5', output: [], status: 'in_progress' };
const content = [{ type: 'output_text', text: ANSWER, annotations: [] }];
const item = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content };
const usage = {
  input_tokens: 40,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 8,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 48,
};
/** A minimal completed Responses answer with one text item (what a request without `stream` gets). */
const completed = { ...response, status: 'completed', output: [item], incomplete_details: null, usage };

/** Server-sent events of the same answer (what a streaming request gets). */
function responseEvents() {
  const events = [
    { type: 'response.created', response },
    { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
    { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: ANSWER, logprobs: [] },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: completed },
  ];
  return events.map((event, index) => `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`).join('');
}

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': '*, authorization',
};

/**
 * Starts the server. `state.arrival` is the `performance.now()` of the first model
 * request since the last {@link resetArrivals}, `state.preflight` that of the first
 * CORS preflight, `state.bodies` the parsed model requests. When `state.onArrival` is
 * set, the first model request's answer waits for it: a bench reads the client's CPU
 * time there, while the client has nothing to do but wait.
 */
export async function startResponsesServer() {
  const state = { arrival: undefined, preflight: undefined, bodies: [], onArrival: undefined };
  const server = createServer((request, reply) => {
    const now = performance.now();
    if (request.method === 'OPTIONS') {
      state.preflight ??= now;
      return void reply.writeHead(204, cors).end();
    }
    if (request.method !== 'POST' || !request.url?.endsWith('/responses')) {
      return void reply.writeHead(404, cors).end(`no route for ${request.method} ${request.url}`);
    }
    const first = state.arrival === undefined;
    state.arrival ??= now;
    const arrived = first && state.onArrival ? state.onArrival() : undefined;
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', async () => {
      const body = JSON.parse(text);
      state.bodies.push(body);
      await arrived;
      if (body.stream === true) {
        reply.writeHead(200, { ...cors, 'content-type': 'text/event-stream' }).end(responseEvents());
      } else {
        reply.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(completed));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    state,
    baseURL: `http://127.0.0.1:${server.address().port}/v1`,
    resetArrivals() {
      state.arrival = undefined;
      state.preflight = undefined;
      state.bodies = [];
      state.onArrival = undefined;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Throws unless `bodies` is exactly the one model request the bench's agents send:
 * model gpt-5, the user's question in the input and the agent's `read_log` tool
 * (Episodic adds its own tools beside it).
 */
export function checkModelRequest(bodies, question, where) {
  const [body] = bodies;
  const tools = (body?.tools ?? []).map((tool) => tool.name);
  const input = JSON.stringify(body?.input ?? '');
  if (bodies.length !== 1 || body.model !== 'gpt-5' || !input.includes(question) || !tools.includes('read_log')) {
    throw new Error(`${where}: expected one Responses request for gpt-5 with the question and the read_log tool, got ${JSON.stringify(bodies).slice(0, 1500)}`);
  }
}
