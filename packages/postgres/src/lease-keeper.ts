/**
 * Keeps a store's leases alive: every `leaseMs / 3` one statement pushes the expiry
 * of every lease the store holds to `leaseMs` from the database's clock (so workers'
 * clocks never matter). A lease the statement does not find any more was released
 * or taken over; its writer learns it at its next write, which the fencing token
 * refuses. The timer does not keep the process alive.
 */
import type { Queryable } from './database.js';

/** The leases one store holds, renewed together. */
export class LeaseKeeper {
  private readonly held = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The last renewal failure (a lost connection); renewal goes on at the next tick. */
  lastError: unknown;

  constructor(
    private readonly database: Queryable,
    private readonly sessions: string,
    private readonly holder: string,
    private readonly leaseMs: number,
  ) {}

  hold(id: string, token: number): void {
    this.held.set(id, token);
    this.timer ??= setInterval(() => void this.renew(), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  drop(id: string, token: number): void {
    if (this.held.get(id) === token) this.held.delete(id);
    if (this.held.size === 0) this.stop();
  }

  /** Stops renewing: the leases still held lapse `leaseMs` after their last renewal, as after a crash. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Renews every held lease now; forgets the ones that are gone. */
  async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const leases = [...this.held].map(([id, token]) => ({ id, token }));
    try {
      const renewed = await this.database.query<{ id: string }>(
        `UPDATE ${this.sessions} AS s SET lease_expires_at = now() + $3::int * interval '1 millisecond'
           FROM json_to_recordset($1::json) AS l(id text, token bigint)
          WHERE s.id = l.id AND s.lease_token = l.token AND s.lease_holder = $2
          RETURNING s.id`,
        [JSON.stringify(leases), this.holder, this.leaseMs],
      );
      const alive = new Set(renewed.map((row) => row.id));
      for (const { id, token } of leases) if (!alive.has(id)) this.drop(id, token);
      this.lastError = undefined;
    } catch (error) {
      // Kept for diagnosis only: if the lease lapses meanwhile, the next write says so.
      this.lastError = error;
    }
  }
}
