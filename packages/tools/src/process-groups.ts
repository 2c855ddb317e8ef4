/**
 * The process groups of the commands `run_command` is running, killed when this
 * process exits or gets an exit signal. Each command runs in its own group (so a
 * timeout can kill everything it started), which also means the terminal's Ctrl-C
 * and a `kill` of the agent never reach it: without this, a command outlives the
 * agent that started it.
 *
 * The handlers are installed only while a command runs. A handler for SIGTERM,
 * SIGINT or SIGHUP replaces Node's default (exit), so when no other listener is left
 * the signal is raised again after the kill and the process ends as it would have.
 * SIGKILL cannot be caught: a command can outlive an agent killed that way.
 */

/** Signals that end a process by default and that an agent may well receive. */
const exitSignals: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

const running = new Set<number>();

function killAll(): void {
  for (const group of running) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  running.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  uninstall();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function install(): void {
  process.on('exit', killAll);
  for (const signal of exitSignals) process.on(signal, onSignal);
}

function uninstall(): void {
  process.off('exit', killAll);
  for (const signal of exitSignals) process.off(signal, onSignal);
}

/**
 * Kills the process group `group` (a leader's pid) with SIGKILL if this process exits
 * or gets an exit signal before the returned function is called.
 */
export function killGroupOnExit(group: number): () => void {
  if (running.size === 0) install();
  running.add(group);
  return () => {
    if (!running.delete(group)) return;
    if (running.size === 0) uninstall();
  };
}
