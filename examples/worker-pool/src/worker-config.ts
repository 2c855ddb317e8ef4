/** What a worker process is told on its command line (as JSON). */
export interface WorkerConfig {
  connectionString: string;
  schema: string;
  /** Its name in the job table and the tools' log. */
  worker: string;
  /** The directory the tools work in. */
  workspace: string;
  /** Session lease and job claim time: a dead worker's work is taken over about this long after it died. */
  leaseMs: number;
  /** Scripted model latency per call. */
  latencyMs: number;
  /** How long the record_step tool works. */
  toolMs: number;
  /** Wait for `go` on stdin before taking work (standby.ts). */
  standby?: boolean;
}
