/**
 * Taking a session for one run of the agent loop: the store's lease when the store
 * has {@link SessionStore.acquire}, else a lease kept in this process (such a store
 * cannot be shared between processes, so one writer per process is one writer).
 */
import { SessionBusyError } from '../errors/session-errors.js';
import type { SessionLease, SessionStore } from './session-store.js';

/** Sessions running in this process, per store without leases of its own. */
const localWriters = new WeakMap<SessionStore, Set<string>>();

/**
 * The session's lease, or a {@link SessionBusyError} when another writer holds it.
 * `knownLength` is what the caller believes is stored; the process-local lease
 * reports it as its `length`, since such a store has no way to tell.
 */
export async function acquireWriter(store: SessionStore, id: string, knownLength: number): Promise<SessionLease> {
  if (store.acquire) return store.acquire(id);
  let running = localWriters.get(store);
  if (!running) {
    running = new Set();
    localWriters.set(store, running);
  }
  if (running.has(id)) {
    throw new SessionBusyError(id, 'another Session object in this process is running an episode of it; await it first.');
  }
  running.add(id);
  let released = false;
  return {
    sessionId: id,
    token: 0,
    length: knownLength,
    release: async () => {
      if (released) return;
      released = true;
      running.delete(id);
    },
  };
}
