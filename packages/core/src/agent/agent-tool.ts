/**
 * Agents as tools (`agent.asTool()`): a call runs a second agent in a session of its
 * own (its own episodes, packer state and budget) and answers with that agent's
 * final text. Only that text reaches the calling agent's context, so nothing the
 * sub-agent packs, shortens or evicts ever touches it.
 *
 * The sub-session's id is a function of the calling session and call (or of the
 * calling session and tool name, for a `shared` sub-session), and its episode's user
 * message names the call (`fromToolCall`), so a call run again after a crash or a
 * pause finds its episode and resumes it rather than starting over. The sub-agent's
 * approvals surface among the caller's (see {@link ToolOutput.pendingApprovals});
 * decisions come back down through the tool context; abort goes down with the signal.
 */
import type { z } from 'zod/v4';
import { hashText } from '../support/fingerprint.js';
import { type JsonSchema, toolInputSchema } from '../support/json-schema.js';
import { describeIssues } from '../support/schema-issue.js';
import { type StandardSchemaV1, validateWith } from '../support/standard-schema.js';
import { builtOnUse, lazily, loadZod } from '../support/zod-loader.js';
import type { AssistantMessage, Message, SubSessionReference, UserMessage } from '../message/message.js';
import { assistantText } from '../message/message.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import { type SessionStore, assertSessionId } from '../store/session-store.js';
import { addUsage, emptyUsageTotals } from '../model/usage-totals.js';
import type { AgentEventHandler } from '../loop/agent-events.js';
import type { ApprovalPolicy } from '../loop/approvals.js';
import type { EpisodeResult } from '../loop/episode-result.js';
import type { RunOptions, Session, SessionInput } from './session-contract.js';
import { type AgentTool, assertToolName, type NeedsApproval, type ToolContext, type ToolOutput } from '../loop/tool.js';
import { ToolInputError } from '../errors/tool-input-error.js';

const defaultInput = lazily((z) =>
  z.object({
    task: z.string().describe('The task for the agent, with everything it needs to know: it sees nothing else.'),
  }),
);

/**
 * The input of an agent tool when none is given: the task in words. A zod schema,
 * built when first used (so importing core loads no zod).
 */
export const DEFAULT_AGENT_TOOL_INPUT: z.ZodObject<{ task: z.ZodString }, z.core.$strip> = builtOnUse(defaultInput);

/**
 * {@link DEFAULT_AGENT_TOOL_INPUT} as `toolInputSchema` converts it, written out: an
 * agent tool with the default input builds its spec without zod (agent-tools.test.ts
 * holds the two equal).
 */
export const DEFAULT_AGENT_TOOL_INPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    task: { type: 'string', description: 'The task for the agent, with everything it needs to know: it sees nothing else.' },
  },
  required: ['task'],
};

/** Options of `agent.asTool()`. */
export interface AgentToolOptions<Input extends StandardSchemaV1 = typeof DEFAULT_AGENT_TOOL_INPUT> {
  /** The tool's name (letters, digits, `_` and `-`). */
  name: string;
  /** What the agent does and when to call it: the calling model reads this. */
  description: string;
  /** The object schema of the call's arguments (any Standard Schema library). Default `{ task: string }`. */
  input?: Input;
  /** The sub-agent's user message for validated input. Default: the `task` field, else the input as JSON. */
  prompt?: (input: StandardSchemaV1.InferOutput<Input>) => SessionInput;
  /**
   * `per-call` (default): every call gets a fresh sub-session. `shared`: one
   * sub-session per calling session and tool, each call a new episode of it (the
   * sub-agent remembers earlier calls, within its own budget).
   */
  session?: 'per-call' | 'shared';
  /** Where sub-sessions live. Default the sub-agent's store, else one in-memory store per tool. Use a persistent one to resume in another process. */
  store?: SessionStore;
  /** Asks a person before the sub-agent starts (see `needsApproval` on tools). */
  needsApproval?: NeedsApproval;
  /** Per-call timeout in ms. Default none: the sub-agent's own stop conditions bound it. */
  timeoutMs?: number;
  /** Receives the sub-agent's events. */
  onEvent?: AgentEventHandler;
}

/** What the agent tool needs of its agent (kept narrow so the agent's internals stay its own). */
export interface SubAgent {
  /** Opens (or creates) one of the sub-agent's sessions: `Agent.session`, narrowed to what the tool uses. */
  readonly agent: { session(options: { id: string; store: SessionStore }): Promise<Session> };
  /** The sub-agent's own approval policy; the caller's applies only when it has none. */
  readonly approvalPolicy: ApprovalPolicy | undefined;
  readonly store: SessionStore | undefined;
}

/** Builds the tool; see the module comment. */
export function agentTool<Input extends StandardSchemaV1>(sub: SubAgent, options: AgentToolOptions<Input>): AgentTool {
  assertToolName(options.name);
  const input: StandardSchemaV1 = options.input ?? DEFAULT_AGENT_TOOL_INPUT;
  const byDefault = input === DEFAULT_AGENT_TOOL_INPUT;
  const inputSchema = byDefault ? DEFAULT_AGENT_TOOL_INPUT_SCHEMA : toolInputSchema(input);
  const store = options.store ?? sub.store ?? new MemorySessionStore();
  const queue = new SessionQueue();
  const open = (id: string) => sub.agent.session({ id, store });
  const idFor = (context: { sessionId?: string | undefined; toolCallId: string }) =>
    subSessionId(options.name, options.session ?? 'per-call', context);
  return {
    spec: { name: options.name, description: options.description, inputSchema },
    timeoutMs: options.timeoutMs ?? Infinity,
    ...(options.needsApproval === undefined ? {} : { needsApproval: options.needsApproval }),
    async execute(args, context) {
      // The default input is core's own zod schema: zod's ES module first (see support/zod-loader.ts).
      if (byDefault) await loadZod();
      const parsed = await validateWith(input, args ?? {});
      if (!parsed.success) throw new ToolInputError(options.name, describeIssues(parsed.issues, args));
      const id = idFor(context);
      const prompt = options.prompt ?? defaultPrompt;
      return queue.run(id, async () => {
        const session = await open(id);
        const run: RunOptions = {
          signal: context.signal,
          ...(options.onEvent ? { onEvent: options.onEvent } : {}),
          ...(sub.approvalPolicy || !context.approvalPolicy ? {} : { approvalPolicy: context.approvalPolicy }),
        };
        const result = await runForCall(session, context, () => prompt(parsed.data as StandardSchemaV1.InferOutput<Input>), run);
        return outputOf(session, id, result);
      });
    },
    async pendingApprovals(_args, context) {
      const id = idFor(context);
      if (!(await store.load(id))) return [];
      const session = await open(id);
      return ownsEpisode(session.messages, context.toolCallId) ? session.pendingApprovals : [];
    },
  };
}

/** Runs the call's episode: a new one, or the rest of the one an earlier run of this call started. */
async function runForCall(
  session: Session,
  context: ToolContext,
  prompt: () => SessionInput,
  run: RunOptions,
): Promise<EpisodeResult | undefined> {
  if (!ownsEpisode(session.messages, context.toolCallId)) {
    return session.send(taskMessage(prompt(), context), run);
  }
  if (!session.unfinished) return undefined; // finished before the caller could record its result
  for (const request of session.pendingApprovals) {
    const decision = context.approvalFor?.(request.sessionId, request.callId);
    if (decision?.decision === 'approved') await session.approve(request, { note: decision.note });
    if (decision?.decision === 'rejected') await session.reject(request, { reason: decision.reason });
  }
  return session.resume(run);
}

function outputOf(session: Session, id: string, result: EpisodeResult | undefined): ToolOutput {
  if (result?.status === 'paused') return { content: '', pendingApprovals: result.pendingApprovals };
  const episode = currentEpisode(session.messages);
  const last = episode.findLast((message): message is AssistantMessage => message.role === 'assistant');
  const text = last ? assistantText(last).trim() : '';
  return {
    content: text || 'The agent finished without an answer.',
    ...(text ? {} : { isError: true }),
    subSession: usageOf(id, episode),
  };
}

/** The sub-agent's calls for this result: every assistant message of the call's episode. */
function usageOf(id: string, episode: readonly Message[]): SubSessionReference {
  let totals = emptyUsageTotals();
  let costUsd: number | undefined = 0;
  for (const message of episode) {
    if (message.role !== 'assistant' || !message.usage) continue;
    totals = addUsage(totals, message.usage);
    costUsd = costUsd === undefined || message.usage.costUsd === undefined ? undefined : costUsd + message.usage.costUsd;
  }
  const { calls, inputTokens, cachedInputTokens, cacheWriteTokens, outputTokens, reasoningTokens } = totals;
  const usage = { inputTokens, cachedInputTokens, cacheWriteTokens, outputTokens, reasoningTokens };
  return { id, calls, usage: costUsd === undefined || calls === 0 ? usage : { ...usage, costUsd } };
}

function defaultPrompt(input: unknown): SessionInput {
  const task = (input as { task?: unknown } | undefined)?.task;
  return typeof task === 'string' ? task : JSON.stringify(input);
}

/** The prompt as the sub-session's user message, naming the call it answers. */
function taskMessage(prompt: SessionInput, context: ToolContext): UserMessage {
  const message: UserMessage =
    typeof prompt === 'string' || Array.isArray(prompt) ? { role: 'user', content: prompt } : { ...prompt };
  const from = { ...(context.sessionId === undefined ? {} : { sessionId: context.sessionId }), callId: context.toolCallId };
  return { ...message, fromToolCall: from };
}

/** True when the sub-session's current episode was opened by this call. */
function ownsEpisode(messages: readonly Message[], callId: string): boolean {
  const user = messages.findLast((message) => message.role === 'user');
  return (user?.fromToolCall as { callId?: unknown } | undefined)?.callId === callId;
}

function currentEpisode(messages: readonly Message[]): Message[] {
  const start = messages.findLastIndex((message) => message.role === 'user');
  return messages.slice(Math.max(0, start));
}

/**
 * The sub-session's id: `<session>.<tool>.<call>` (per call) or `<session>.<tool>`
 * (shared) when that is a valid session id, else the tool name and a hash of it. A
 * call outside any session gets a sub-session named after the call alone.
 */
export function subSessionId(
  name: string,
  mode: 'per-call' | 'shared',
  context: { sessionId?: string | undefined; toolCallId: string },
): string {
  const parts = [context.sessionId ?? 'detached', name, ...(mode === 'per-call' ? [context.toolCallId] : [])];
  const readable = parts.join('.');
  try {
    assertSessionId(readable);
    return readable;
  } catch {
    return `${name}.${hashText(parts.join('\u0000')).slice(0, 24)}`;
  }
}

/** Runs work for one sub-session at a time: parallel calls of a shared sub-agent take turns. */
class SessionQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(id: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(id) ?? Promise.resolve();
    const current = previous.catch(() => {}).then(work);
    const tail = current.catch(() => {});
    this.tails.set(id, tail);
    void tail.then(() => {
      if (this.tails.get(id) === tail) this.tails.delete(id);
    });
    return current;
  }
}
