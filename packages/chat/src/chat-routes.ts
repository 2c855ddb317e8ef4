/**
 * What the chat routes do once a request has passed the caller checks and its body
 * has been read: run, list, decide and resume a chat's episodes on its session, lent
 * from the handler's sessions for as long as the work (or its stream) lasts.
 */
import type { AgentEvent, ApprovalRequest } from '@episodic/core';
import { createUIMessageStreamResponse, toUIMessageStream, type UIMessageStreamOptions } from '@episodic/core/ui-stream';
import { chatApprovalAnswers, chatDecision, chatId, chatMessage, isApprovalAnswer } from './chat-body.js';
import type { ChatSessions, Lent } from './chat-sessions.js';
import { json, refuse } from './http-responses.js';
import { SECURITY_HEADERS } from './request-guard.js';

/** Settings of {@link ChatRoutes}. */
export interface ChatRouteSettings {
  maxMessageChars: number;
  stream: UIMessageStreamOptions | undefined;
}

/** The routes' work on one handler's sessions. */
export class ChatRoutes {
  constructor(
    private readonly sessions: ChatSessions,
    private readonly settings: ChatRouteSettings,
  ) {}

  /**
   * `POST path`: an episode with the posted message, streamed; or, when the message is
   * the assistant's with approvals answered (`addToolApprovalResponse` in the AI SDK
   * client), those decisions taken and the episode resumed, streamed.
   */
  send(body: unknown, client: string): Promise<Response> | Response {
    if (isApprovalAnswer(body)) return this.answerApprovals(body, client);
    const parsed = chatMessage(body, this.settings.maxMessageChars);
    if (!parsed.ok) return refuse(parsed.refusal);
    const { id, text } = parsed.value;
    return this.streamed(id, client, (lent, signal) => lent.session.stream(text, { signal }));
  }

  /** `GET path/approvals?id=…`: the calls waiting for a decision. */
  approvals(rawId: string | null, client: string): Promise<Response> | Response {
    const id = chatId({ id: rawId });
    if (!id.ok) return refuse(id.refusal);
    return this.withSession(id.value, client, async (lent) => json({ pending: toWire(lent.session.pendingApprovals) }));
  }

  /** `POST path/approvals`: one decision; answers the calls still waiting. */
  decide(body: unknown, client: string): Promise<Response> | Response {
    const parsed = chatDecision(body);
    if (!parsed.ok) return refuse(parsed.refusal);
    const { id, callId, decision, note, reason } = parsed.value;
    return this.withSession(id, client, async ({ session }) => {
      const waiting = session.pendingApprovals.find((request) => request.callId === callId);
      if (!waiting) return refuse({ status: 404, message: `No tool call "${callId}" waits for a decision in chat ${id}.` });
      if (decision === 'approved') await session.approve(waiting, note === undefined ? {} : { note });
      else await session.reject(waiting, reason === undefined ? {} : { reason });
      return json({ pending: toWire(session.pendingApprovals) });
    });
  }

  /** `POST path/resume`: the paused or interrupted episode continued, streamed. */
  resume(body: unknown, client: string): Promise<Response> | Response {
    const id = chatId(body);
    if (!id.ok) return refuse(id.refusal);
    return this.streamed(id.value, client, (lent, signal) => (lent.session.unfinished ? lent.session.resumeStream({ signal }) : undefined));
  }

  private answerApprovals(body: unknown, client: string): Promise<Response> | Response {
    const parsed = chatApprovalAnswers(body);
    if (!parsed.ok) return refuse(parsed.refusal);
    const { id, decisions } = parsed.value;
    return this.streamed(id, client, async (lent, signal) => {
      const { session } = lent;
      for (const { callId, decision, note, reason } of decisions) {
        // An answer the session no longer waits for (decided before, or from a stale page) is passed over.
        const waiting = session.pendingApprovals.find((request) => request.callId === callId);
        if (!waiting) continue;
        if (decision === 'approved') await session.approve(waiting, note === undefined ? {} : { note });
        else await session.reject(waiting, reason === undefined ? {} : { reason });
      }
      return session.unfinished ? session.resumeStream({ signal }) : undefined;
    });
  }

  /** Runs `use` on the chat's session, given back when it returns. */
  private async withSession(id: string, client: string, use: (lent: Lent) => Promise<Response>): Promise<Response> {
    const lent = await this.sessions.lend(id, client);
    if ('status' in lent) return refuse(lent);
    try {
      return await use(lent);
    } finally {
      lent.done();
    }
  }

  /** Streams the events `run` starts; the session stays lent until the stream ends or is cancelled. */
  private async streamed(
    id: string,
    client: string,
    run: (lent: Lent, signal: AbortSignal) => AsyncIterable<AgentEvent> | undefined | Promise<AsyncIterable<AgentEvent> | undefined>,
  ): Promise<Response> {
    const lent = await this.sessions.lend(id, client);
    if ('status' in lent) return refuse(lent);
    const controller = new AbortController();
    let events: AsyncIterable<AgentEvent> | undefined;
    try {
      events = await run(lent, controller.signal);
    } catch (error) {
      lent.done();
      throw error;
    }
    if (!events) {
      lent.done();
      return refuse({ status: 409, message: `Chat ${id} has nothing to resume.` });
    }
    // The client went away or pressed Stop: end the episode (the transcript stays consistent).
    const chunks = releasing(toUIMessageStream(events, this.settings.stream), () => controller.abort(), () => lent.done());
    return createUIMessageStreamResponse(chunks, { headers: SECURITY_HEADERS });
  }
}

/** A stream that calls `cancelled` when its reader cancels it, and `ended` once when it ends, errs or has been cancelled. */
function releasing<T>(stream: ReadableStream<T>, cancelled: () => void, ended: () => void): ReadableStream<T> {
  const reader = stream.getReader();
  let over = false;
  const end = () => {
    if (over) return;
    over = true;
    ended();
  };
  return new ReadableStream<T>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (!next.done) return controller.enqueue(next.value);
        end();
        controller.close();
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    async cancel(reason) {
      // Stop the run first, and give the session back only once its events have ended.
      cancelled();
      try {
        await reader.cancel(reason);
      } finally {
        end();
      }
    },
  });
}

/** The wire form of waiting calls. */
function toWire(requests: readonly ApprovalRequest[]) {
  return requests.map(({ callId, toolName, args, sessionId }) => ({ callId, toolName, args, sessionId }));
}
