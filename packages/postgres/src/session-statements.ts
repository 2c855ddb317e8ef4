/**
 * The SQL of {@link PostgresSessionStore}, one function per statement, for the
 * schema's table names. Every write is one statement (one round trip, atomic), and
 * every write checks the writer in its WHERE clause against the session row, which
 * it locks: a takeover (which updates the same row) and a write are serialized, so
 * a write carrying a superseded fencing token can never commit after the takeover.
 *
 * Writer check, `$token` being the writer's lease token or NULL:
 * - with a token: the row's token must be that one and still held;
 * - without: nobody may hold a live lease.
 */

/** Table names of one schema. */
export interface Tables {
  sessions: string;
  messages: string;
  /** The sequence lease tokens come from, as a string literal for nextval. */
  tokens: string;
}

/** The schema's tables, from its quoted name. */
export function tablesOf(schema: string): Tables {
  return {
    sessions: `${schema}.episodic_sessions`,
    messages: `${schema}.episodic_messages`,
    tokens: `'${schema}.episodic_lease_tokens'`,
  };
}

/** The writer check on the session row for a token parameter (see above). */
const writerCheck = (token: string) =>
  `CASE WHEN ${token}::bigint IS NULL THEN lease_holder IS NULL OR lease_expires_at <= now()
        ELSE lease_token = ${token}::bigint AND lease_holder IS NOT NULL END`;

/** A leased write also renews the lease: the writer is evidently alive. */
const renewal = (token: string, leaseMs: string) =>
  `lease_expires_at = CASE WHEN ${token}::bigint IS NULL THEN lease_expires_at
                           ELSE now() + ${leaseMs}::int * interval '1 millisecond' END`;

/**
 * Appends: $1 id, $2 JSON array of the messages, $3 their count, $4 token, $5 expected
 * length or NULL, $6 lease ms. Returns one row per message stored; none when the
 * writer check or the expected length failed (nothing is written then).
 */
export const appendMessages = ({ sessions, messages }: Tables) => `
  WITH bumped AS (
    UPDATE ${sessions}
       SET message_count = message_count + $3::int, updated_at = now(), ${renewal('$4', '$6')}
     WHERE id = $1 AND ($5::int IS NULL OR message_count = $5::int) AND ${writerCheck('$4')}
    RETURNING message_count - $3::int AS start
  )
  INSERT INTO ${messages} (session_id, seq, message)
  SELECT $1, bumped.start + (m.ordinality - 1)::int, m.value
    FROM bumped CROSS JOIN LATERAL json_array_elements($2::json) WITH ORDINALITY AS m(value, ordinality)
  RETURNING seq`;

/** A JSON column of a session, replaced whole. */
export type SessionColumn = 'pack_state' | 'reasoning_sidecar' | 'approvals';

/** Replaces a JSON column (pack state, sidecar, approvals): $1 id, $2 value or NULL, $3 token, $4 lease ms. */
export const replaceColumn = ({ sessions }: Tables, column: SessionColumn) => `
  UPDATE ${sessions} SET ${column} = $2::json, updated_at = now(), ${renewal('$3', '$4')}
   WHERE id = $1 AND ${writerCheck('$3')}
  RETURNING 1 AS done`;

/**
 * Replaces the approval record if it is still at the revision the decider saw:
 * $1 id, $2 value or NULL, $3 token, $4 lease ms, $5 expected revision or NULL.
 * The row lock serializes two deciders; the second re-reads the row and finds
 * another revision, so it writes nothing.
 */
export const replaceApprovals = ({ sessions }: Tables) => `
  UPDATE ${sessions} SET approvals = $2::json, updated_at = now(), ${renewal('$3', '$4')}
   WHERE id = $1 AND ${writerCheck('$3')}
     AND ($5::int IS NULL OR COALESCE((approvals->>'revision')::int, 0) = $5::int)
  RETURNING 1 AS done`;

/** The approval record's revision (0 without one): $1 id. */
export const approvalRevision = ({ sessions }: Tables) =>
  `SELECT COALESCE((approvals->>'revision')::int, 0) AS revision FROM ${sessions} WHERE id = $1`;

/** Makes sure the session row exists (for a write without a lease): $1 id. */
export const ensureSession = ({ sessions }: Tables) =>
  `INSERT INTO ${sessions} (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`;

/** Why a write found nothing to update: $1 id. */
export const writerState = ({ sessions }: Tables) => `
  SELECT message_count, lease_token::text AS token, lease_holder AS holder,
         CASE WHEN lease_expires_at > now()
              THEN ceil(extract(epoch FROM lease_expires_at - now()) * 1000)::int END AS remaining_ms
    FROM ${sessions} WHERE id = $1`;

/**
 * Takes the lease when nobody holds a live one: $1 id, $2 holder, $3 lease ms.
 * Returns the new token and the stored length, or no row (busy). The token comes from
 * the schema's sequence, so it never repeats, even for a session deleted and created
 * again (a writer of the deleted one is then refused).
 */
export const acquireLease = ({ sessions, tokens }: Tables) => `
  INSERT INTO ${sessions} AS s (id, lease_token, lease_holder, lease_expires_at)
  VALUES ($1, nextval(${tokens}), $2, now() + $3::int * interval '1 millisecond')
  ON CONFLICT (id) DO UPDATE
     SET lease_token = excluded.lease_token, lease_holder = excluded.lease_holder,
         lease_expires_at = excluded.lease_expires_at
   WHERE s.lease_holder IS NULL OR s.lease_expires_at <= now()
  RETURNING lease_token::text AS token, message_count`;

/** Gives a lease up: $1 id, $2 token, $3 holder. */
export const releaseLease = ({ sessions }: Tables) => `
  UPDATE ${sessions} SET lease_holder = NULL, lease_expires_at = NULL
   WHERE id = $1 AND lease_token = $2::bigint AND lease_holder = $3`;

/** The session row: $1 id. */
export const loadSession = ({ sessions }: Tables) => `
  SELECT message_count, pack_state::text AS pack_state, reasoning_sidecar::text AS sidecar,
         approvals::text AS approvals
    FROM ${sessions} WHERE id = $1`;

/** The first $2 messages of session $1, in order, as stored text. */
export const loadMessages = ({ messages }: Tables) =>
  `SELECT message::text AS message FROM ${messages} WHERE session_id = $1 AND seq < $2 ORDER BY seq`;

/** Ids of sessions with anything stored. */
export const listSessions = ({ sessions }: Tables) => `
  SELECT id FROM ${sessions}
   WHERE message_count > 0 OR pack_state IS NOT NULL OR reasoning_sidecar IS NOT NULL ORDER BY id`;

/** Deletes session $1 with its messages. */
export const deleteSession = ({ sessions }: Tables) => `DELETE FROM ${sessions} WHERE id = $1 RETURNING id`;

/** Deletes sessions untouched for $1 days that nobody holds; returns their ids. */
export const deleteIdleSessions = ({ sessions }: Tables) => `
  DELETE FROM ${sessions}
   WHERE updated_at < now() - $1::double precision * interval '1 day'
     AND (lease_holder IS NULL OR lease_expires_at <= now())
  RETURNING id`;
