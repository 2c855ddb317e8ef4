/**
 * What the loop does differently under a durable runtime, kept out of the loop:
 * the episode replays from its start against what the store holds (see
 * replay-tail.ts), each model call and each tool execution is a step, and a pause
 * for approvals is a durable wait for each decision (sent from any process).
 */
import type { ApprovalDecision } from '../../store/approval-record.js';
import type { ApprovalRequest, LoopApprovals } from '../approvals.js';
import type { ModelCallResult } from '../model-call.js';
import type { AssistantMessage, Message, Usage, UserMessage } from '../../message/message.js';
import type { StopReason } from '../../model/model-adapter.js';
import type { AgentTool } from '../tool.js';
import { type DurableRun, stepIds } from './durable-runtime.js';
import { durableTools, type Redact } from './durable-tools.js';
import { ReplayTail } from './replay-tail.js';

/** What a model call's step records: the message the loop appends, and what it is told about the call. */
export interface RecordedModelCall {
  message: AssistantMessage;
  usage: Usage;
  stopReason: StopReason;
}

/** A model call as the loop sees it: the recorded part, and the live result when the call ran in this process. */
export interface ModelCallOutcome extends RecordedModelCall {
  live: ModelCallResult | undefined;
}

/** One episode under a runtime. */
export class DurableEpisode {
  readonly replay: ReplayTail;
  private readonly decisions = new Map<string, ApprovalDecision>();
  private failure: { error: unknown } | undefined;

  /** Rewinds `session.messages` to the episode's start (see {@link ReplayTail.rewind}). */
  constructor(
    readonly run: DurableRun,
    private readonly sessionId: string,
    messages: Message[],
    input: UserMessage | undefined,
  ) {
    this.replay = ReplayTail.rewind(messages, run.episode, input);
  }

  /**
   * The tools as steps, one at a time: a replay must meet its steps in the order they
   * were recorded. Their outputs are recorded through `redact` (the agent's secrets).
   */
  tools(tools: ReadonlyMap<string, AgentTool>, redact?: Redact): Map<string, AgentTool> {
    return durableTools(tools, this.run, this.sessionId, (error) => (this.failure ??= { error }), redact);
  }

  /** Throws the runtime's failure in a tool step of the batch just run, if there was one. */
  throwIfFailed(): void {
    const failure = this.failure;
    this.failure = undefined;
    if (failure) throw failure.error;
  }

  /**
   * Decisions come only from this run's durable waits, so a replay decides as the
   * first run did (a decision stored since would otherwise skip the wait it replays).
   */
  approvals(session: LoopApprovals | undefined): LoopApprovals {
    return {
      decided: (callId, sessionId) => (sessionId === this.sessionId ? this.decisions.get(callId) : undefined),
      answered: (callIds) => session?.answered(callIds) ?? Promise.resolve(),
    };
  }

  /** True when every request is this session's own: requests of a sub-agent's session cannot be waited for here. */
  canWaitFor(pending: readonly ApprovalRequest[]): boolean {
    return pending.length > 0 && pending.every((request) => request.sessionId === this.sessionId);
  }

  /** Waits (durably) for a decision on each request, in order. */
  async waitForDecisions(pending: readonly ApprovalRequest[]): Promise<void> {
    for (const request of pending) {
      const decision = await this.run.runtime.waitFor<ApprovalDecision>(stepIds.approval(this.sessionId, request.callId));
      this.decisions.set(request.callId, decision);
    }
  }

  /** Calls the model as step `step` of the episode; a replay gets the recorded call and no live result. */
  async callModel(step: number, call: () => Promise<ModelCallResult>): Promise<ModelCallOutcome> {
    let live: ModelCallResult | undefined;
    const recorded = await this.run.runtime.step(stepIds.model(this.sessionId, this.run.episode, step), async () => {
      live = await call();
      const { message, usage, stopReason } = live;
      return JSON.parse(JSON.stringify({ message, usage, stopReason })) as RecordedModelCall;
    });
    return { ...recorded, live };
  }
}
