#!/usr/bin/env node
/**
 * `npm start` in examples/web-chat: serves the chat page on http://127.0.0.1:3000/
 * with the offline demo agent. `--port N` picks another port.
 */
import { parseArgs } from 'node:util';
import { buildPage } from './build-page.js';
import { startChatServer } from './chat-server.js';
import { createDemoAgent } from './demo-agent.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '3000' } } });
await buildPage();
const server = await startChatServer({ agent: createDemoAgent(), port: Number(values.port) });
console.log(`Episodic web chat (offline scripted model): ${server.url}`);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
