/** The plain answers of the chat handler: JSON, a refusal as text, the security headers on any response. */
import { type Refusal, SECURITY_HEADERS } from './request-guard.js';

/** A 200 JSON answer. */
export function json(value: unknown): Response {
  return new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/** A refusal: its status and message as plain text. */
export function refuse(refusal: Refusal): Response {
  return new Response(refusal.message, { status: refusal.status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** `response` with {@link SECURITY_HEADERS} added (on a copy when its headers are immutable). */
export function withHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    // A response built with immutable headers (`Response.redirect`, a fetched one) is copied first.
    try {
      if (!response.headers.has(name)) response.headers.set(name, value);
    } catch {
      const copy = new Response(response.body, response);
      for (const [key, header] of Object.entries(SECURITY_HEADERS)) if (!copy.headers.has(key)) copy.headers.set(key, header);
      return copy;
    }
  }
  return response;
}
