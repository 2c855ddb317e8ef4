/**
 * A session's approvals: which tool calls wait for a decision (worked out from the
 * transcript, so a reopened session knows them without any stored list) and the
 * decisions made so far, persisted through the store's approval record so they
 * survive a restart until `resume()` acts on them.
 */
import { InvalidArgumentError } from '../errors/input-errors.js';
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
  /** The stored record's revision as this session last saw or wrote it. */
  private revision: number;

  constructor(
    private readonly store: SessionStore,
    private readonly sessionId: string,
    private readonly tools: ReadonlyMap<string, AgentTool>,
    record: ApprovalRecord | undefined,
  ) {
    for (const stored of record?.decisions ?? []) this.decisions.set(keyOf(stored.sessionId, stored.callId), stored);
    this.revision = record?.revision ?? 0;
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
    // Most episodes end with every call answered: nothing to look up, and nothing to prune without decisions.
    this.waiting = unanswered.length === 0 ? [] : (await Promise.all(unanswered.map((call) => this.waitingFor(call)))).flat();
    if (!options.prune || this.decisions.size === 0) return;
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
    await this.decideOnce([request], decision);
  }

  /** Records the same decision on every waiting call; returns the calls it decided. */
  async decideAll(decision: ApprovalDecision): Promise<ApprovalRequest[]> {
    const requests = [...this.pending];
    if (requests.length > 0) await this.decideOnce(requests, decision);
    return requests;
  }

  /**
   * Writes decisions on the record as this session saw it (compare-and-set): when
   * another decider wrote since, the store refuses with an `ApprovalConflictError`
   * and this session forgets the decisions it tried.
   */
  private async decideOnce(requests: readonly ApprovalRequest[], decision: ApprovalDecision): Promise<void> {
    const before = new Map(this.decisions);
    for (const request of requests) this.decisions.set(keyOf(request.sessionId, request.callId), stored(request, decision));
    try {
      await this.save(undefined, true);
    } catch (error) {
      this.decisions.clear();
      for (const [key, value] of before) this.decisions.set(key, value);
      throw error;
    }
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
  private async save(write?: WriteOptions, compare = false): Promise<void> {
    const decisions = [...this.decisions.values()];
    const revision = this.revision + 1;
    const record: ApprovalRecord | undefined = decisions.length > 0 ? { version: 1, revision, decisions } : undefined;
    await this.store.saveApprovals?.(this.sessionId, record, compare ? { ...write, expectedRevision: this.revision } : write);
    this.revision = record ? revision : 0;
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
