/**
 * Stop conditions: small predicates the agent loop checks after every step that ran
 * tools. When one holds, the episode ends there instead of calling the model again
 * (a step without tool calls always ends the episode). Compose them with
 * {@link anyOf} and {@link allOf}; an array given as `stopWhen` means `anyOf`.
 */
import type { AssistantMessage, Message, ToolMessage } from '../message/message.js';

/** What a stop condition sees after a step. */
export interface StopContext {
  /** Model calls in the current episode so far, this one included (counted from the transcript, so a resumed episode keeps counting). */
  steps: number;
  /** The assistant message of the step that just finished. */
  message: AssistantMessage;
  /** The results of its tool calls. */
  toolResults: readonly ToolMessage[];
  /** The whole transcript, this step included. */
  messages: readonly Message[];
}

/** True when the episode should stop after this step. */
export type StopCondition = (context: StopContext) => boolean;

/** Stops once the episode has made `count` model calls. */
export function maxSteps(count: number): StopCondition {
  return (context) => context.steps >= count;
}

/** Stops after a step that called the tool `name` (its result is in the transcript). */
export function hasToolCall(name: string): StopCondition {
  return (context) => context.message.content.some((part) => part.type === 'tool-call' && part.name === name);
}

/** Holds when any of `conditions` holds (none given: never). */
export function anyOf(...conditions: readonly StopCondition[]): StopCondition {
  return (context) => conditions.some((condition) => condition(context));
}

/** Holds when every one of `conditions` holds (none given: never, so an empty list cannot stop a run by accident). */
export function allOf(...conditions: readonly StopCondition[]): StopCondition {
  return (context) => conditions.length > 0 && conditions.every((condition) => condition(context));
}
