/**
 * A session's approvals: which tool calls wait for a decision (worked out from the
 * transcript, so a reopened session knows them without any stored list) and the
 * decisions made so far, persisted through the store's approval record so they
 * survive a restart until `resume()` acts on them.
 */
import { InvalidArgumentError } from '../errors.js';
import { unansweredToolCalls } from '../message/episodes.js';
import type { Message, ToolCallPart } from '../message/message.js';
import type { ApprovalRecord, StoredApprovalDecision } from '../store/approval-record.js';
import type { SessionStore, WriteOptions } from '../store/session-store.js';
import { type ApprovalDecision, type ApprovalRequest, approvalRequest, type LoopApprovals } from '../loop/approvals.js';
import type { AgentTool } from '../loop/tool.js';
import { parseToolArguments } from '../loop/tool-arguments.js';

/** Which call a decision is for: its id, or the request itself (needed when two sessions' calls share an id). */
export type ApprovalTarget = string | Pick<ApprovalRequest, 'callId' | 'sessionId'>;

const keyOf = (sessionId: string, callId: string) => `${sessionId}\u0000${callId}`;

/** The approvals of one session; see the module comment. */
export class SessionApprovals implements LoopApprovals {
  private readonly decisions = new Map<string, StoredApprovalDecision>();
  private waiting: ApprovalRequest[] = [];

  constructor(
    private readonly store: SessionStore,
    private readonly sessionId: string,
    private readonly tools: ReadonlyMap<string, AgentTool>,
    record: ApprovalRecord | undefined,
  ) {
    for (const stored of record?.decisions ?? []) this.decisions.set(keyOf(stored.sessionId, stored.callId), stored);
  }

  /** Calls waiting for a decision, in call order (decided ones are left out until `resume()` acts on them). */
  get pending(): readonly ApprovalRequest[] {
    return this.waiting.filter((request) => !this.decisions.has(keyOf(request.sessionId, request.callId)));
  }

  /**
   * Works out the waiting calls from the transcript: the unanswered calls of its last
   * step whose tools need approval, and the calls their agent tools' sub-sessions wait
   * for. With `prune`, decisions on sub-session calls that no longer wait (the agent
   * tool handed them down) are forgotten, written with those options (the run's lease).
   */
  async refresh(messages: readonly Message[], options: { prune?: WriteOptions } = {}): Promise<void> {
    const unanswered = unansweredToolCalls(messages)?.calls ?? [];
    const found = await Promise.all(unanswered.map((call) => this.waitingFor(call)));
    this.waiting = found.flat();
    if (!options.prune) return;
    const waiting = new Set(this.waiting.map((request) => keyOf(request.sessionId, request.callId)));
    let changed = false;
    for (const [key, stored] of this.decisions) {
      if (stored.sessionId !== this.sessionId && !waiting.has(key)) changed = this.decisions.delete(key) || changed;
    }
    if (changed) await this.save(options.prune);
  }

  /** What one unanswered call waits for: its own approval, else what its tool's sub-session waits for. */
  private async waitingFor(call: ToolCallPart): Promise<readonly ApprovalRequest[]> {
    const tool = this.tools.get(call.name);
    const own = await approvalRequest(call, tool, this.sessionId);
    const decision = own && this.decided(call.id);
    if (own && decision?.decision !== 'approved') return [own];
    const args = parseToolArguments(call);
    if (!tool?.pendingApprovals || !args.ok) return own ? [own] : [];
    const nested = await tool.pendingApprovals(args.value, { toolCallId: call.id, sessionId: this.sessionId });
    return own ? [own, ...nested] : nested;
  }

  decided(callId: string, sessionId = this.sessionId): ApprovalDecision | undefined {
    const stored = this.decisions.get(keyOf(sessionId, callId));
    if (!stored) return undefined;
    return stored.decision === 'approved'
      ? { decision: 'approved', ...(stored.note === undefined ? {} : { note: stored.note }) }
      : { decision: 'rejected', ...(stored.reason === undefined ? {} : { reason: stored.reason }) };
  }

  /** The calls now have results: their decisions are spent; `write` carries the run's lease. */
  async answered(callIds: readonly string[], write?: WriteOptions): Promise<void> {
    let changed = false;
    for (const callId of callIds) changed = this.decisions.delete(keyOf(this.sessionId, callId)) || changed;
    this.waiting = this.waiting.filter((request) => !callIds.includes(request.callId));
    if (changed) await this.save(write);
  }

  /** Records a decision on one waiting call and persists it; throws for a call that is not waiting. */
  async decide(target: ApprovalTarget, decision: ApprovalDecision): Promise<void> {
    const request = this.find(target);
    this.decisions.set(keyOf(request.sessionId, request.callId), stored(request, decision));
    await this.save();
  }

  /** Records the same decision on every waiting call; returns the calls it decided. */
  async decideAll(decision: ApprovalDecision): Promise<ApprovalRequest[]> {
    const requests = [...this.pending];
    for (const request of requests) this.decisions.set(keyOf(request.sessionId, request.callId), stored(request, decision));
    if (requests.length > 0) await this.save();
    return requests;
  }

  private find(target: ApprovalTarget): ApprovalRequest {
    const callId = typeof target === 'string' ? target : target.callId;
    const matches = this.waiting.filter(
      (request) => request.callId === callId && (typeof target === 'string' || request.sessionId === target.sessionId),
    );
    if (matches.length === 1) return matches[0] as ApprovalRequest;
    const waiting = this.waiting.map((request) => request.callId).join(', ') || 'none';
    if (matches.length === 0) {
      throw new InvalidArgumentError(
        `no tool call "${callId}" is waiting for approval in session "${this.sessionId}" (waiting: ${waiting}); ` +
          'take ids from result.pendingApprovals or session.pendingApprovals.',
      );
    }
    throw new InvalidArgumentError(
      `two waiting calls share the id "${callId}" (in sessions ${matches.map((match) => match.sessionId).join(' and ')}): ` +
        'pass the request object from pendingApprovals instead of its id.',
    );
  }

  /**
   * Writes the record. Between runs no lease is held: a store with leases refuses the
   * write with a `SessionBusyError` while another writer (a running episode) holds it.
   */
  private async save(write?: WriteOptions): Promise<void> {
    const decisions = [...this.decisions.values()];
    await this.store.saveApprovals?.(this.sessionId, decisions.length > 0 ? { version: 1, decisions } : undefined, write);
  }
}

function stored(request: ApprovalRequest, decision: ApprovalDecision): StoredApprovalDecision {
  return {
    callId: request.callId,
    sessionId: request.sessionId,
    decision: decision.decision,
    ...(decision.decision === 'approved' && decision.note !== undefined ? { note: decision.note } : {}),
    ...(decision.decision === 'rejected' && decision.reason !== undefined ? { reason: decision.reason } : {}),
    decidedAt: new Date().toISOString(),
  };
}
