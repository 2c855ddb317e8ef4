/**
 * A short, stable fingerprint of JSON-like data (object keys sorted), used to
 * notice when the prefix a reasoning signature is bound to has changed.
 */
import { digest } from '@episodic/core/internal';

/** JSON with object keys sorted, so equal data always gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const record = item as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    );
  });
}

/** base64url SHA-256 of the canonical JSON, cut to 22 characters (132 bits). */
export function stableHash(value: unknown): string {
  return digest('sha256', canonicalJson(value), 'base64url').slice(0, 22);
}
