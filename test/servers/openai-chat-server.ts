/**
 * A loopback Chat Completions server (https://platform.openai.com/docs/api-reference/chat-streaming)
 * for OpenAI and every OpenAI-compatible family, parameterised by the family's rule
 * row (./openai-chat-rules.ts): it streams reasoning in that family's field
 * (`delta.reasoning_content`, `delta.reasoning`, `delta.thinking`, `<think>` in
 * `delta.content`, OpenRouter `reasoning_details`), tool calls as `delta.tool_calls`,
 * usage in a last chunk, `data: [DONE]`, and rejects what the family rejects with
 * its status code, error text and body shape.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { checkArgumentsVerbatim, modelJson } from './model-json.js';
import {
  type ChatFamily,
  type ChatFamilyRule,
  type ChatRejection,
  chatErrorBody,
  chatFamilyRules,
  reasoningFieldRejection,
  toolsWithEffortRejection,
} from './openai-chat-rules.js';
import {
  answerScriptedError,
  cachedPrefixTokens,
  chunks,
  type OpenAIScript,
  type OpenAIScriptedServer,
  tokensOf,
} from './openai-responses-server.js';
import type { RecordedRequest, RequestView, ScriptedReply } from './scripted-server.js';
import {
  clientGone,
  headerRecord,
  readJsonBody,
  sendJson,
  startLoopbackServer,
  startSse,
  writeSseEvent,
} from './sse.js';
import { openAIFormatProblem, openAIFormatView } from './structured-output-rules.js';

type WireMessage = Record<string, unknown> & { role?: string };

/** Starts a strict loopback chat server for one family (or a rule row of your own); `url` is the SDK `baseURL`. */
export async function startOpenAIChatServer(family: ChatFamily | ChatFamilyRule): Promise<OpenAIScriptedServer> {
  const rule = typeof family === 'string' ? chatFamilyRules[family] : family;
  const secret = randomBytes(16).toString('hex');
  const sign = (model: string, text: string) =>
    createHmac('sha256', secret).update(`${model}\n${text}`).digest('base64');
  const issued = new Map<string, { model: string; traces: string[] }>();
  /** Arguments strings this server's model wrote, by call id. */
  const issuedCalls = new Map<string, { model: string; arguments: string }>();
  const queue: OpenAIScript[] = [];
  const requests: RecordedRequest[] = [];
  let previousPrefix = '';
  let counter = 0;

  const server = await startLoopbackServer(async (request, response) => {
    const path = request.url ?? '';
    const headers = headerRecord(request);
    const body = ((await readJsonBody(request)) ?? {}) as Record<string, unknown>;
    const record: RecordedRequest = { path, headers, body, status: 200 };
    requests.push(record);
    const refuse = (rejection: ChatRejection) => {
      record.status = rejection.status;
      record.error = rejection.message;
      sendJson(response, rejection.status, chatErrorBody(rule, rejection));
    };
    if (!path.endsWith('/chat/completions')) return refuse({ status: 404, message: `Invalid URL (POST ${path})` });
    if (!headers.authorization?.startsWith('Bearer ')) {
      return refuse({ status: 401, message: 'Incorrect API key provided.', code: 'invalid_api_key' });
    }
    const messages = Array.isArray(body.messages) ? (body.messages as WireMessage[]) : [];
    const model = String(body.model);
    record.view = viewOfChatRequest(model, messages, rule, issued, sign);
    const format = chatFormat(body.response_format);
    const formatView = openAIFormatView(format);
    if (formatView) record.view.outputFormat = formatView;
    const problem =
      responseFormatProblem(format, rule) ??
      validateChatRequest(body, messages, rule, sign) ??
      checkArgumentsVerbatim(messages, model, issuedCalls);
    if (problem) return refuse(problem);
    const scripted = queue.shift() ?? { type: 'reply', text: 'ok' };
    if (answerScriptedError(response, record, scripted)) return;
    const prefix = JSON.stringify([body.tools, messages]);
    const usage = { input: tokensOf(prefix), cached: cachedPrefixTokens(previousPrefix, prefix) };
    previousPrefix = prefix;
    const writer = new ChunkWriter(response, model, `chatcmpl-${++counter}`);
    startSse(response);
    if (scripted.type === 'stall') {
      writer.delta({ role: 'assistant', content: scripted.text });
      await clientGone(response);
      return;
    }
    if (scripted.type === 'incomplete') {
      if (scripted.text) writer.delta({ role: 'assistant', content: scripted.text });
      writer.finish('length', usage, rule, 0);
      return;
    }
    const reply = scripted as ScriptedReply;
    const traces = reply.reasoning ?? [];
    if (traces.length > 0) issued.set(traces.join('\n\n'), { model, traces });
    const reasoningTokens = streamReply(
      writer,
      reply,
      rule,
      (text) => sign(model, text),
      (text) => {
        const id = `call_${randomBytes(6).toString('hex')}`;
        issuedCalls.set(id, { model, arguments: text });
        return id;
      },
    );
    writer.finish(reply.toolCalls?.length ? 'tool_calls' : 'stop', usage, rule, reasoningTokens, reply);
  });
  return {
    url: `${server.url}/v1`,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    modelCalls: () => requests.filter((entry) => entry.view !== undefined),
    close: () => server.close(),
  };
}

/** Chat's `response_format` in the Responses shape (`json_schema` fields next to `type`). */
function chatFormat(responseFormat: unknown): unknown {
  const format = responseFormat as { type?: unknown; json_schema?: Record<string, unknown> } | undefined;
  return format?.type === 'json_schema' ? { type: 'json_schema', ...format.json_schema } : format;
}

/** A json_schema answer format: checked on OpenAI, refused by hosts without it (DeepSeek's wording). */
function responseFormatProblem(format: unknown, rule: ChatFamilyRule): ChatRejection | undefined {
  if ((format as { type?: unknown } | undefined)?.type !== 'json_schema') return undefined;
  if (!rule.jsonSchemaAnswers) {
    return { status: 400, message: 'This response_format type is unavailable now', code: 'invalid_request_error' };
  }
  const problem = openAIFormatProblem(format, 'response_format.json_schema');
  return problem ? { status: 400, message: problem, param: 'response_format', code: 'invalid_json_schema' } : undefined;
}

/** The family's rules over the request; the first violation, if any. */
function validateChatRequest(
  body: Record<string, unknown>,
  messages: WireMessage[],
  rule: ChatFamilyRule,
  sign: (model: string, text: string) => string,
): ChatRejection | undefined {
  const model = String(body.model);
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  if (rule.toolsWithEffortRejected?.test(model) && hasTools && body.reasoning_effort !== 'none') {
    return toolsWithEffortRejection(model);
  }
  if (rule.maxTokensRefused?.test(model) && 'max_tokens' in body) {
    return {
      status: 400,
      message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      param: 'max_tokens',
      code: 'unsupported_parameter',
    };
  }
  if (rule.reasoningModels && !rule.reasoningModels.test(model)) {
    const field = ['reasoning_format', 'reasoning_effort'].find((name) => name in body);
    if (field) return reasoningFieldRejection(field);
  }
  const answered = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      if (!answered.has(String(message.tool_call_id))) {
        return {
          status: 400,
          message:
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          param: `messages.[${index}].role`,
        };
      }
      continue;
    }
    if (message.role !== 'assistant') continue;
    const later = rule.requiredOnLaterAssistants;
    if (later && !(later.field in message) && messages.slice(0, index).some((m) => m.role === 'assistant' && later.field in m)) {
      return later.error(index);
    }
    const problem = checkAssistantMessage(message, index, messages, rule, model, sign);
    if (problem) return problem;
    for (const call of toolCallsOf(message)) answered.add(call.id);
  }
  return undefined;
}

function toolCallsOf(message: WireMessage): { id: string; function?: { arguments?: string } }[] {
  return Array.isArray(message.tool_calls) ? (message.tool_calls as { id: string }[]) : [];
}

function checkAssistantMessage(
  message: WireMessage,
  index: number,
  messages: WireMessage[],
  rule: ChatFamilyRule,
  model: string,
  sign: (model: string, text: string) => string,
): ChatRejection | undefined {
  for (const [field, error] of Object.entries(rule.rejectedFields ?? {})) {
    if (field in message) return error(index);
  }
  const calls = toolCallsOf(message);
  if (calls.length > 0 && rule.requiredOnToolCalls && !(rule.requiredOnToolCalls.field in message)) {
    return rule.requiredOnToolCalls.error(index);
  }
  if (Array.isArray(message.reasoning_details)) {
    for (const detail of message.reasoning_details as Record<string, unknown>[]) {
      if (detail.signature !== sign(model, String(detail.text))) {
        // What the upstream (Anthropic) answers through OpenRouter for a foreign or edited block.
        return { status: 400, message: `messages.${index}.content.0: Invalid \`signature\` in \`thinking\` block` };
      }
    }
  }
  const following = messages.slice(index + 1);
  const missing = calls.find(
    (call) => !following.some((next) => next.role === 'tool' && next.tool_call_id === call.id),
  );
  if (missing) {
    return {
      status: 400,
      message:
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. " +
        `The following tool_call_ids did not have response messages: ${missing.id}`,
      param: 'messages',
    };
  }
  return undefined;
}

/** The reasoning text an assistant message carries back in the family's field. */
function reasoningSentBack(message: WireMessage, rule: ChatFamilyRule): string | undefined {
  if (rule.stream === 'think-tags') {
    const match = /^<think>([\s\S]*?)<\/think>/.exec(String(message.content ?? ''));
    return match?.[1];
  }
  if (rule.details && Array.isArray(message.reasoning_details)) {
    return (message.reasoning_details as { text?: string }[]).map((detail) => detail.text ?? '').join('');
  }
  for (const field of ['reasoning_content', 'reasoning', 'thinking']) {
    if (typeof message[field] === 'string') return message[field] as string;
  }
  return undefined;
}

function viewOfChatRequest(
  model: string,
  messages: WireMessage[],
  rule: ChatFamilyRule,
  issued: Map<string, { model: string; traces: string[] }>,
  sign: (model: string, text: string) => string,
): RequestView {
  const echoedReasoning: string[] = [];
  let reasoningItems = 0;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    const text = reasoningSentBack(message, rule);
    if (text === undefined || text === '') continue;
    reasoningItems += 1;
    const known = issued.get(text);
    const signed =
      !rule.details ||
      (message.reasoning_details as Record<string, unknown>[]).every(
        (d) => d.signature === sign(model, String(d.text)),
      );
    if (known && known.model === model && signed) echoedReasoning.push(...known.traces);
  }
  const tools = messages.filter((message) => message.role === 'tool');
  return {
    model,
    echoedReasoning,
    reasoningItems,
    toolCallIds: messages.flatMap((message) => toolCallsOf(message).map((call) => call.id)),
    toolResultIds: tools.map((message) => String(message.tool_call_id)),
    toolErrorIds: tools
      .filter((message) => String(message.content).startsWith('[tool error]'))
      .map((message) => String(message.tool_call_id)),
    userTexts: messages.filter((message) => message.role === 'user').map(userText),
    messageCount: messages.length,
    cacheBreakpoints: 0,
  };
}

function userText(message: WireMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return '';
  return (message.content as { type?: string; text?: string }[]).map((part) => part.text ?? '').join('');
}

/** Streams reasoning, text and tool calls; returns the reasoning token count. */
function streamReply(
  writer: ChunkWriter,
  reply: ScriptedReply,
  rule: ChatFamilyRule,
  sign: (text: string) => string,
  callId: (args: string) => string,
): number {
  writer.delta({ role: 'assistant', content: '' });
  const reasoning = (reply.reasoning ?? []).join('\n\n');
  if (reasoning && rule.stream !== 'none' && rule.stream !== 'harmony') {
    if (rule.stream === 'think-tags') {
      // Cut the tags across chunks, as real streams do.
      for (const piece of chunks(`<think>${reasoning}</think>`, 5)) writer.delta({ content: piece });
    } else {
      for (const piece of chunks(reasoning)) writer.delta({ [rule.stream]: piece });
    }
    if (rule.details) {
      // Streamed in fragments of one entry (same index); the signature comes last.
      const half = Math.ceil(reasoning.length / 2);
      const base = { type: 'reasoning.text', format: 'anthropic-claude-v1', index: 0 };
      writer.delta({ reasoning_details: [{ ...base, text: reasoning.slice(0, half) }] });
      writer.delta({ reasoning_details: [{ ...base, text: reasoning.slice(half), signature: sign(reasoning) }] });
    }
  }
  if (rule.stream === 'harmony') {
    // Raw Harmony: analysis then final channel, special tokens cut across chunks.
    const raw = `${reasoning ? `<|channel|>analysis<|message|>${reasoning}<|end|><|start|>assistant` : ''}<|channel|>final<|message|>${reply.text ?? ''}<|return|>`;
    for (const piece of chunks(raw, 6)) writer.delta({ content: piece });
  } else for (const piece of chunks(reply.text ?? '')) writer.delta({ content: piece });
  (reply.toolCalls ?? []).forEach((call, index) => {
    const args = modelJson(call.args);
    const at = rule.moonshotStream ? {} : { index };
    writer.delta({
      tool_calls: [{ ...at, id: callId(args), type: 'function', function: { name: call.name, arguments: '' } }],
    });
    for (const piece of chunks(args)) writer.delta({ tool_calls: [{ ...at, function: { arguments: piece } }] });
  });
  return tokensOf(reasoning);
}

/** Writes `chat.completion.chunk` events. */
class ChunkWriter {
  constructor(
    private readonly response: ServerResponse,
    private readonly model: string,
    private readonly id: string,
  ) {}

  private chunk(choices: unknown[], extra: Record<string, unknown> = {}): void {
    writeSseEvent(this.response, {
      id: this.id,
      object: 'chat.completion.chunk',
      created: 0,
      model: this.model,
      choices,
      ...extra,
    });
  }

  delta(delta: Record<string, unknown>): void {
    this.chunk([{ index: 0, delta, finish_reason: null }]);
  }

  finish(
    reason: string,
    usage: { input: number; cached: number },
    rule: ChatFamilyRule,
    reasoningTokens: number,
    reply?: ScriptedReply,
  ): void {
    const input = reply?.usage?.input ?? usage.input;
    const cached = reply?.usage?.cacheRead ?? usage.cached;
    const output = reply?.usage?.output ?? tokensOf(JSON.stringify(reply ?? {})) + reasoningTokens;
    const wireUsage: Record<string, unknown> = {
      prompt_tokens: input,
      completion_tokens: output,
      total_tokens: input + output,
      completion_tokens_details: { reasoning_tokens: Math.min(reply?.usage?.reasoning ?? reasoningTokens, output) },
    };
    if (rule.deepseekUsage) {
      wireUsage.prompt_cache_hit_tokens = cached;
      wireUsage.prompt_cache_miss_tokens = input - cached;
    } else wireUsage.prompt_tokens_details = { cached_tokens: cached };
    if (rule.moonshotStream) {
      this.chunk([{ index: 0, delta: {}, finish_reason: reason, usage: wireUsage }]);
    } else if (reason === 'length' && rule.errorAfterLength) {
      this.chunk([{ index: 0, delta: {}, finish_reason: reason }]);
      this.chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }], {
        error: rule.errorAfterLength,
        usage: wireUsage,
      });
    } else {
      this.chunk([{ index: 0, delta: {}, finish_reason: reason }]);
      this.chunk([], { usage: wireUsage });
    }
    this.response.write('data: [DONE]\n\n');
    this.response.end();
  }
}
