/**
 * What the loop does differently under a durable runtime, kept out of the loop:
 * the episode replays from its start against what the store holds (see
 * replay-tail.ts), each model call and each tool execution is a step, and a pause
 * for approvals is a durable wait for each decision (sent from any process).
 */
import type { ApprovalDecision } from '../../store/approval-record.js';
import type { ApprovalRequest, LoopApprovals } from '../approvals.js';
import type { ModelCallOutcome, RecordedModelCall } from '../hooks/loop-hook.js';
import type { Message, UserMessage } from '../../message/message.js';
import type { AgentTool } from '../tool.js';
import { type DurableRun, stepIds } from './durable-runtime.js';
import { durableTools, type Redact } from './durable-tools.js';
import { ReplayTail } from './replay-tail.js';
import { checkApprovalDecision, DURABLE_APPROVALS_KEY, type DurableApproval } from './durable-approvals.js';

/** One episode under a runtime. */
export class DurableEpisode {
  readonly replay: ReplayTail;
  private readonly decisions = new Map<string, ApprovalDecision>();
  private failure: { error: unknown } | undefined;
  /** Every call this run waited on (decided or not), as clients see them. */
  private readonly published: DurableApproval[] = [];

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

  /**
   * Waits (durably) for a decision on each request, in order. Each wait gets a
   * ticket of its own (a step) and is published before it begins, so a client can
   * decide only calls that wait (see durable-approvals.ts).
   */
  async waitForDecisions(pending: readonly ApprovalRequest[]): Promise<void> {
    const { runtime, episode } = this.run;
    const waits: DurableApproval[] = [];
    for (const { callId, toolName, args } of pending) {
      const draw = () => Promise.resolve(globalThis.crypto.randomUUID());
      const ticket = await runtime.step(stepIds.approvalTicket(this.sessionId, episode, callId), draw);
      waits.push({ sessionId: this.sessionId, episode, callId, toolName, args, wait: stepIds.approval(this.sessionId, callId, ticket) });
    }
    this.published.push(...waits);
    for (const wait of waits) {
      await runtime.publish?.(DURABLE_APPROVALS_KEY, this.published);
      wait.decision = received(await runtime.waitFor<unknown>(wait.wait));
      this.decisions.set(wait.callId, wait.decision);
    }
    await runtime.publish?.(DURABLE_APPROVALS_KEY, this.published);
  }

  /** Calls the model as step `step` of the episode; a replay gets the recorded call and no live result. */
  async callModel(step: number, call: () => Promise<ModelCallOutcome>): Promise<ModelCallOutcome> {
    let live: ModelCallOutcome['live'];
    const recorded = await this.run.runtime.step(stepIds.model(this.sessionId, this.run.episode, step), async () => {
      const outcome = await call();
      live = outcome.live;
      const { message, usage, stopReason } = outcome;
      return JSON.parse(JSON.stringify({ message, usage, stopReason })) as RecordedModelCall;
    });
    return { ...recorded, live };
  }
}

/**
 * A received decision; one that is not valid (sent around the clients' checks)
 * decides nothing to run: the call is rejected, and the episode goes on.
 */
function received(value: unknown): ApprovalDecision {
  try {
    return checkApprovalDecision(value);
  } catch (error) {
    return { decision: 'rejected', reason: `The decision received was not valid (${(error as Error).message}).` };
  }
}
