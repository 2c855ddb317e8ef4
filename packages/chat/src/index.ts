/**
 * `@episodic/chat`: an Episodic agent as a web chat endpoint you mount. A
 * web-standard `Request -> Response` handler with the guards a local agent server
 * needs (Host/Origin allow-list, JSON only, body limits, sessions per chat id,
 * approvals), streaming the AI SDK UI message stream; and an adapter for Node's `http`.
 */
export { createChatHandler } from './chat-handler.js';
export type { ChatHandler, ChatHandlerOptions, ChatRequestContext } from './chat-handler.js';
export type { ChatDecision } from './chat-body.js';
export { toNodeListener } from './node-listener.js';
export type { FetchHandler } from './node-listener.js';
export { PAGE_CSP, SECURITY_HEADERS } from './request-guard.js';
export type { RequestGuardOptions } from './request-guard.js';
