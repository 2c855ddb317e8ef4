/**
 * The agents the first-request and install benches run: Episodic's (`Agent` +
 * `createOpenAIResponsesAdapter`) and the AI SDK's (`generateText` + `createOpenAI`),
 * each with one tool, asking one question of the loopback Responses server. The Node
 * programs run in a fresh process (`BASE_URL` from the environment, the answer
 * printed); the browser agents are bundled into a page (`globalThis.BASE_URL` set by
 * the page, the answer or the error left on `globalThis` for the bench to read).
 */

/** The question every agent asks; the bench checks the request carried it. */
export const QUESTION = 'Why did the build fail?';

const inputSchema = `{ type: 'object', properties: { run: { type: 'number' } }, required: ['run'] }`;

const episodicTool = `const readLog = {
  spec: { name: 'read_log', description: 'Reads a CI log', inputSchema: ${inputSchema} },
  execute: async () => ({ content: 'ok' }),
};`;

const aiSdkTool = `const readLog = tool({ description: 'Reads a CI log', inputSchema: jsonSchema(${inputSchema}), execute: async () => 'ok' });`;

/** Episodic in a fresh Node process: the adapter makes its own client. */
export const episodicNodeProgram = `import { Agent } from '@episodic/core';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';
const model = createOpenAIResponsesAdapter({ model: 'gpt-5', apiKey: 'sk-test', baseURL: process.env.BASE_URL });
${episodicTool}
const session = await new Agent({ model, system: 'You debug CI failures.', tools: [readLog] }).session();
console.log((await session.send(${JSON.stringify(QUESTION)})).text);
`;

/** The AI SDK in a fresh Node process. */
export const aiSdkNodeProgram = `import { generateText, jsonSchema, tool } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
const openai = createOpenAI({ apiKey: 'sk-test', baseURL: process.env.BASE_URL });
${aiSdkTool}
const result = await generateText({ model: openai('gpt-5'), system: 'You debug CI failures.', prompt: ${JSON.stringify(QUESTION)}, tools: { read_log: readLog } });
console.log(result.text);
`;

/**
 * Episodic in a page: the \`openai\` SDK refuses to run in a browser unless told the key
 * may be exposed, so the page passes its own client (as a browser application does).
 */
export const episodicBrowserAgent = `import { Agent } from '@episodic/core';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import OpenAI from 'openai';
try {
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: globalThis.BASE_URL, maxRetries: 0, dangerouslyAllowBrowser: true });
  const model = createOpenAIResponsesAdapter({ model: 'gpt-5', client });
  ${episodicTool}
  const session = await new Agent({ model, system: 'You debug CI failures.', tools: [readLog] }).session();
  globalThis.agentResult = { text: (await session.send(${JSON.stringify(QUESTION)})).text };
} catch (error) {
  globalThis.agentError = String(error?.stack ?? error);
}
`;

/** The AI SDK in a page. */
export const aiSdkBrowserAgent = `import { generateText, jsonSchema, tool } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
try {
  const openai = createOpenAI({ apiKey: 'sk-test', baseURL: globalThis.BASE_URL });
  ${aiSdkTool}
  const result = await generateText({ model: openai('gpt-5'), system: 'You debug CI failures.', prompt: ${JSON.stringify(QUESTION)}, tools: { read_log: readLog } });
  globalThis.agentResult = { text: result.text };
} catch (error) {
  globalThis.agentError = String(error?.stack ?? error);
}
`;
