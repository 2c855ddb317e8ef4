/**
 * What every conformance scenario runs on: the adapter under test (wrapped only to
 * record what its stream throws), agents around it built the way applications
 * build them, a fake sleep for the loop's retry backoff, the events of every run,
 * and the expectations each retention policy sets for the reasoning a request
 * carries back.
 */
import {
  Agent,
  type AgentEvent,
  type AgentTool,
  type EpisodeResult,
  MemorySessionStore,
  type ModelAdapter,
  type Retention,
  type Session,
  type SessionInput,
  type StopCondition,
  type TokenCounter,
} from '@episodic/core';
import { expect } from 'vitest';
import type { RecordedRequest, RequestView, ScriptedReply, ScriptedServer } from '../servers/scripted-server.js';
import { testAgentTools } from './conformance-tools.js';

/** The scenarios of the suite (the keys hooks receive). */
export type ScenarioName =
  | 'three-tool-steps'
  | 'second-user-turn'
  | 'parallel-tool-calls'
  | 'tool-error'
  | 'abort-mid-stream'
  | 'rate-limit-then-success'
  | 'context-overflow-repack'
  | 'model-switch'
  | 'approval-pause-resume'
  | 'structured-output-recovered';

/** What a scenario leaves for provider-specific hooks to inspect. */
export interface ScenarioResult {
  server: ScriptedServer;
  /** The session the scenario ran (the last one opened, after a model switch). */
  session: Session;
  /** The model calls the server received, in order. */
  calls: RecordedRequest[];
}

/** One adapter under test: its server, how to build it, two models, and its own checks. */
export interface ConformanceTarget {
  name: string;
  startServer(): Promise<ScriptedServer>;
  createAdapter(baseUrl: string, options: { model: string }): ModelAdapter;
  /** Two models of this provider; `secondary` is switched to mid-session. */
  models: { primary: string; secondary: string };
  /**
   * False for wire APIs on which reasoning neither streams nor goes back (OpenAI
   * Chat Completions). Default true; what goes back is then up to the profile's retention.
   */
  echoesReasoning?: boolean;
  hooks?: {
    /** Provider-specific assertions after each scenario (breakpoints, headers, wire fields). */
    afterScenario?(scenario: ScenarioName, result: ScenarioResult): void | Promise<void>;
  };
}

/** The adapter under test, unchanged, plus every error its stream threw. */
export interface ObservedAdapter extends ModelAdapter {
  readonly thrown: unknown[];
}

/** Records what `adapter.stream` throws; everything else passes through untouched. */
export function observe(adapter: ModelAdapter): ObservedAdapter {
  const thrown: unknown[] = [];
  const countTokens = adapter.countTokens?.bind(adapter);
  return {
    model: adapter.model,
    profile: adapter.profile,
    thrown,
    async* stream(request, options) {
      try {
        yield* adapter.stream(request, options);
      } catch (error) {
        thrown.push(error);
        throw error;
      }
    },
    ...(countTokens ? { countTokens } : {}),
  };
}

/** One answer the scripted model gave, as far as retention cares. */
export interface Answer {
  reply: ScriptedReply;
  /** True for answers of the episode the request belongs to. */
  current: boolean;
}

/**
 * Which answers' reasoning a retention policy sends back (docs/architecture.md, "Packer",
 * guarantee 2), written out here independently of the packer.
 */
const sentUnder: Record<Retention, (answer: Answer) => boolean> = {
  episode: (answer) => answer.current,
  'tool-episodes': (answer) => answer.current || (answer.reply.toolCalls?.length ?? 0) > 0,
  all: () => true,
  none: () => false,
};

/** The retention the loop applies for this adapter: its profile's, else `episode`. */
export const retentionOf = (adapter: ModelAdapter): Retention => adapter.profile?.retention ?? 'episode';

/** The neutral view of a recorded model call (fails when the request was not one). */
export const viewOf = (request: RecordedRequest | undefined): RequestView => {
  if (!request?.view) throw new Error('expected a recorded model call');
  return request.view;
};

/** Every request sent each tool call with its result and each result with its call. */
export function expectNoOrphans(calls: readonly RecordedRequest[]): void {
  for (const call of calls) {
    const view = viewOf(call);
    expect([...view.toolResultIds].sort()).toEqual([...view.toolCallIds].sort());
  }
}

const SYSTEM = 'You debug CI failures.';

/** Options of {@link Harness.agent}: which model, and the knobs a scenario needs. */
export interface AgentSetup {
  model?: ModelAdapter;
  stopWhen?: StopCondition;
  budget?: number;
  tokenizer?: TokenCounter;
  /** Default the conformance tools. */
  tools?: readonly AgentTool[];
}

/** One scenario's server, adapter, store and records. */
export class Harness {
  readonly adapter: ObservedAdapter;
  readonly store = new MemorySessionStore();
  readonly events: AgentEvent[] = [];
  /** Delays the loop asked its (fake) sleep for. */
  readonly sleeps: number[] = [];
  readonly system = SYSTEM;

  constructor(
    readonly target: ConformanceTarget,
    readonly server: ScriptedServer,
  ) {
    this.adapter = observe(this.createAdapter(target.models.primary));
  }

  /** Starts the target's server and builds the primary adapter. */
  static async start(target: ConformanceTarget): Promise<Harness> {
    return new Harness(target, await target.startServer());
  }

  /** A fresh adapter of the target for `model`, on this scenario's server. */
  createAdapter(model: string): ModelAdapter {
    return this.target.createAdapter(this.server.url, { model });
  }

  /** An agent on the shared store; the budget and retention are the profile's unless set. */
  agent(setup: AgentSetup = {}): Agent {
    const sleeps = this.sleeps;
    return new Agent({
      model: setup.model ?? this.adapter,
      system: SYSTEM,
      tools: setup.tools ?? testAgentTools,
      store: this.store,
      modelCalls: {
        // The loop waits through this; recording instead keeps a 429 scenario instant.
        retry: {
          sleep: async (ms, signal) => {
            signal?.throwIfAborted();
            sleeps.push(ms);
          },
        },
      },
      ...(setup.stopWhen ? { stopWhen: setup.stopWhen } : {}),
      context: {
        ...(setup.budget === undefined ? {} : { budget: setup.budget }),
        ...(setup.tokenizer ? { tokenizer: setup.tokenizer } : {}),
      },
    });
  }

  /** Opens the scenario's one session (every agent of a scenario shares it). */
  session(agent: Agent = this.agent()): Promise<Session> {
    return agent.session({ id: 'conformance' });
  }

  /** `session.send`, recording the run's events. */
  send(session: Session, input: SessionInput, signal?: AbortSignal): Promise<EpisodeResult> {
    return session.send(input, { signal, onEvent: (event) => this.events.push(event) });
  }

  /** `session.resume`, recording the run's events. */
  resume(session: Session): Promise<EpisodeResult> {
    return session.resume({ onEvent: (event) => this.events.push(event) });
  }

  /** Errors the loop reported, in order. */
  errors(): Extract<AgentEvent, { type: 'error' }>[] {
    return this.events.flatMap((event) => (event.type === 'error' ? [event] : []));
  }

  /** The model calls the server received so far. */
  calls(): RecordedRequest[] {
    return this.server.modelCalls();
  }

  /** What the hooks get after the scenario. */
  result(session: Session): ScenarioResult {
    return { server: this.server, session, calls: this.calls() };
  }

  /**
   * Asserts that `request` carried back exactly the reasoning `adapter`'s retention
   * keeps of `answers` (all by the model the request went to), each item intact with
   * its opaque data, and no other reasoning item.
   */
  expectEcho(request: RecordedRequest | undefined, answers: Answer[], adapter: ModelAdapter = this.adapter): void {
    const retention = retentionOf(adapter);
    const wire = this.target.echoesReasoning ?? true;
    const expected = wire ? answers.filter(sentUnder[retention]).flatMap((answer) => answer.reply.reasoning ?? []) : [];
    const view = viewOf(request);
    expect(view.echoedReasoning, `reasoning sent back under retention "${retention}"`).toEqual(expected);
    expect(view.reasoningItems, 'reasoning items in the request').toBe(expected.length);
  }

  /** Closes the server (after each scenario). */
  close(): Promise<void> {
    return this.server.close();
  }
}

/** Marks replies as answers of the current episode. */
export const current = (...replies: ScriptedReply[]): Answer[] => replies.map((reply) => ({ reply, current: true }));
/** Marks replies as answers of a past episode. */
export const past = (...replies: ScriptedReply[]): Answer[] => replies.map((reply) => ({ reply, current: false }));
