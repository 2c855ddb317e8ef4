/**
 * When a recorded call was made, from the `timestamp` importers put on messages (an
 * ISO string or milliseconds). A request goes out right after the message before its
 * answer (the user's words or the last tool result), so that message's time is the
 * call's; a prompt cache expires when the gap between two requests passes its TTL.
 */
import type { Message } from '@episodic/core';

/** Milliseconds of a recorded `timestamp`, or undefined when there is none. */
function timeOf(message: Message | undefined): number | undefined {
  const value = message?.timestamp;
  const time = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(time) ? time : undefined;
}

/** The time the call answered by `messages[index]` was made, if recorded. */
export function requestTime(messages: readonly Message[], index: number): number | undefined {
  return timeOf(messages[index - 1]) ?? timeOf(messages[index]);
}

/** True when more than `ttlSeconds` passed between two requests, so the cache had expired. */
export function cacheExpired(previous: number | undefined, current: number | undefined, ttlSeconds: number | undefined): boolean {
  return ttlSeconds !== undefined && previous !== undefined && current !== undefined && current - previous > ttlSeconds * 1000;
}
