/**
 * The LangChain baseline: `trimMessages` from @langchain/core (v1) with strategy
 * `last`, the way its docs recommend for chat history:
 * https://js.langchain.com/docs/how_to/trim_messages/
 *
 * Settings, chosen to make the comparison fair and the output valid:
 * - the history is kept as LangChain messages, converted once when appended
 *   (reasoning as `reasoning` content blocks, tool calls as `AIMessage.tool_calls`,
 *   results as `ToolMessage`);
 * - `tokenCounter` sums per-message counts cached in a Map by message id, filled on
 *   append with the same tiktoken o200k counts Episodic uses. The cache is keyed by
 *   id because `trimMessages` copies every message on each call, so a WeakMap over
 *   message objects would never hit;
 * - `maxTokens` is the budget less the tool definitions and the reply priming
 *   (LangChain does not see tools), `includeSystem: true` keeps the system prompt;
 * - `startOn: 'human'` so the window starts at a user message: without it the
 *   window can start with a tool result whose call was cut off (an invalid request);
 * - `allowPartial: false`: partial messages would split tool pairs and reasoning.
 * It keeps all reasoning, like the naive window.
 */
import { FRAMING } from '@episodic/core/internal';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages } from '@langchain/core/messages';

const SYSTEM_ID = 'system';

function toLangChain(message, id) {
  switch (message.role) {
    case 'user':
      return new HumanMessage({ id, content: message.content });
    case 'assistant': {
      const content = [];
      const toolCalls = [];
      for (const part of message.content) {
        if (part.type === 'reasoning') content.push({ type: 'reasoning', reasoning: part.text });
        else if (part.type === 'text') content.push({ type: 'text', text: part.text });
        else if (part.type === 'tool-call')
          toolCalls.push({ type: 'tool_call', id: part.id, name: part.name, args: part.args });
      }
      return new AIMessage({ id, content, tool_calls: toolCalls });
    }
    case 'tool':
      return new ToolMessage({
        id,
        content: message.content,
        tool_call_id: message.toolCallId,
        name: message.toolName,
        status: message.isError ? 'error' : 'success',
      });
    default:
      throw new Error(`unexpected ${message.role} message in the bench transcript`);
  }
}

/**
 * @param {{ budget: number, counter: import('@episodic/core').TokenCounter, system: string,
 *   tools: import('@episodic/core').ToolSpec[] }} options
 */
export function createStrategy({ budget, counter, system, tools }) {
  const counts = new Map([[SYSTEM_ID, counter.countSystem(system)]]);
  const sources = new Map();
  const history = [new SystemMessage({ id: SYSTEM_ID, content: system })];
  const maxTokens = budget - FRAMING.reply - counter.countTools(tools);
  const tokenCounter = (messages) => {
    let total = 0;
    for (const message of messages) total += counts.get(message.id);
    return total;
  };
  return {
    name: 'LangChain trimMessages',
    settings: "strategy 'last', includeSystem, startOn 'human', no partial messages, id-cached counter",
    onAppend(message) {
      const id = `m${history.length}`;
      history.push(toLangChain(message, id));
      counts.set(id, counter.countMessage(message));
      sources.set(id, message);
    },
    pack() {
      return trimMessages(history, {
        maxTokens,
        strategy: 'last',
        tokenCounter,
        includeSystem: true,
        startOn: 'human',
      });
    },
    toTranscript(packed) {
      // When nothing fits, trimMessages with includeSystem returns [undefined]: count it as empty.
      return packed.filter((message) => message && message.id !== SYSTEM_ID).map((message) => sources.get(message.id));
    },
  };
}
