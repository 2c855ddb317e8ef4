/**
 * The Chat Completions stream read from the raw response. The `openai` SDK throws
 * on a chunk that carries `error` before anyone can read the rest of that chunk, and
 * OpenRouter puts the call's usage on exactly that chunk (recorded: input 43, output
 * 10, reasoning 11 tokens on "Token limit reached"), so the usage was lost. Here each
 * chunk is parsed first: an error chunk yields its usage (as a usage-only chunk) and
 * then throws the same `APIError` the SDK would have thrown.
 */
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { type LazyOpenAIClient, openAISdk } from '../openai-shared/openai-sdk.js';

type APIErrorClass = typeof OpenAI.APIError;

/** Opens the stream: HTTP errors are thrown by the SDK as usual; the body is read here. */
export async function openChatChunks(
  client: LazyOpenAIClient,
  body: ChatCompletionCreateParamsStreaming,
  signal: AbortSignal | undefined,
): Promise<AsyncIterable<ChatCompletionChunk>> {
  const response = await (await client.get()).chat.completions.create(body, { signal }).asResponse();
  return chatChunks(response, (await openAISdk.load()).APIError);
}

async function* chatChunks(response: Response, APIError: APIErrorClass): AsyncGenerator<ChatCompletionChunk> {
  if (!response.body) throw new APIError(undefined, undefined, 'the stream response has no body', response.headers);
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const event of events) {
    if (event.data === '[DONE]') return;
    const data = JSON.parse(event.data) as ChatCompletionChunk & { error?: unknown };
    if (data.error !== undefined && data.error !== null) {
      if (data.usage) yield { ...data, choices: [] };
      throw new APIError(undefined, data.error as object, undefined, response.headers);
    }
    yield data;
  }
}
