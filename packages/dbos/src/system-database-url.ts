/**
 * DBOS's system database URL as this package hands it to DBOS. DBOS sets
 * `idle_in_transaction_session_timeout` on each new connection of its pool with a
 * query it does not wait for, so the connection's first real query overlaps it and
 * pg prints "Calling client.query() when the client is already executing a query is
 * deprecated". Given in the URL's libpq `options` instead, the server applies the same
 * setting at connect and DBOS leaves its query out.
 */

/** DBOS's own default for the setting, in milliseconds. */
const IDLE_IN_TRANSACTION_MS = 60_000;

/** `url` with the idle-in-transaction timeout in its `options` (unchanged when it sets one, or is not a URL). */
export function withIdleTimeoutOption(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const options = parsed.searchParams.get('options') ?? '';
  if (options.includes('idle_in_transaction_session_timeout')) return url;
  const setting = `-c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`;
  parsed.searchParams.set('options', options ? `${options} ${setting}` : setting);
  return parsed.toString();
}
