/**
 * A durable runtime in memory, for testing code that runs on one: it records each
 * step's result by id, as an engine would, and can be told to "crash" (throw
 * {@link SimulatedCrash}) before a step runs or after its result is recorded, so a
 * test can run the episode again on a fresh session and check what a real engine's
 * replay would do.
 */
import type { DurableRuntime } from '../loop/durable/durable-runtime.js';

/** Thrown where the journal was told to crash. */
export class SimulatedCrash extends Error {
  constructor(readonly at: string) {
    super(`simulated crash at ${at}`);
  }
}

/** Where to crash: before the step with this id runs, or after its result is recorded. */
export interface CrashPoint {
  stepId: string;
  when: 'before' | 'after';
}

/** See the module comment. */
export class MemoryJournal implements DurableRuntime {
  /** Recorded results by step id. */
  readonly records = new Map<string, string>();
  /** Every step id whose function ran, in order (replayed steps are not listed). */
  readonly ran: string[] = [];
  /** What the run published, by key (its latest value, as JSON data). */
  readonly published = new Map<string, unknown>();
  private readonly sent = new Map<string, unknown>();
  private readonly waiting = new Map<string, (value: unknown) => void>();
  private crash: CrashPoint | undefined;
  /** As `DurableRuntime.concurrentSteps`: steps are recorded by id, so they may run side by side. */
  readonly concurrentSteps: boolean;

  /** `concurrentSteps: false` plays a runtime that runs one step at a time (see `DurableRuntime.concurrentSteps`). */
  constructor(options: { concurrentSteps?: boolean } = {}) {
    this.concurrentSteps = options.concurrentSteps ?? true;
  }

  /** Makes the next run throw a {@link SimulatedCrash} at `point` (once). */
  crashAt(point: CrashPoint): void {
    this.crash = point;
  }

  async step<T>(id: string, run: () => Promise<T>): Promise<T> {
    const recorded = this.records.get(id);
    if (recorded !== undefined) return JSON.parse(recorded) as T;
    this.crashIf(id, 'before');
    this.ran.push(id);
    const value = await run();
    this.records.set(id, JSON.stringify(value ?? null));
    this.crashIf(id, 'after');
    return JSON.parse(this.records.get(id)!) as T;
  }

  async sleep(id: string, ms: number): Promise<void> {
    await this.step(id, () => new Promise<null>((resolve) => setTimeout(() => resolve(null), ms)));
  }

  waitFor<T>(name: string): Promise<T> {
    if (this.sent.has(name)) return Promise.resolve(this.sent.get(name) as T);
    return new Promise<T>((resolve) => this.waiting.set(name, resolve as (value: unknown) => void));
  }

  async publish(key: string, value: unknown): Promise<void> {
    this.published.set(key, JSON.parse(JSON.stringify(value)));
  }

  /** Sends `value` to whoever waits (or will wait) for `name`. */
  send(name: string, value: unknown): void {
    this.sent.set(name, value);
    this.waiting.get(name)?.(value);
    this.waiting.delete(name);
  }

  /** Names someone waits for now. */
  get waitingFor(): string[] {
    return [...this.waiting.keys()];
  }

  private crashIf(id: string, when: CrashPoint['when']): void {
    if (this.crash?.stepId === id && this.crash.when === when) {
      this.crash = undefined;
      throw new SimulatedCrash(`${when} ${id}`);
    }
  }
}
