/**
 * Who may talk to the chat server. It runs agents with tools on this machine, so a
 * web page elsewhere must not drive it: the `Host` header must name this server
 * (a DNS-rebound page sends its own name), an `Origin` must be the page's own
 * (browsers send it with every cross-site POST, `no-cors` fetches and form posts
 * included), and the API takes JSON only (a content type no form or `no-cors`
 * request can send without a CORS preflight, which this server never grants).
 */
import type { IncomingMessage } from 'node:http';

/** Options of the checks (see ChatServerOptions). */
export interface RequestGuardOptions {
  /** Host names (or `host:port`) accepted besides loopback and the address the server listens on. */
  allowedHosts?: readonly string[];
  /** Origins (e.g. `https://chat.example`) accepted besides the server's own. */
  allowedOrigins?: readonly string[];
  /** Content types the API accepts. Default `application/json` only. */
  contentTypes?: readonly string[];
}

const loopback = ['localhost', '127.0.0.1', '[::1]'];

/** A refused request: the status and why. */
export interface Refusal {
  status: number;
  message: string;
}

/** Why the request may not be served (any route), or undefined. */
export function refuseCaller(request: IncomingMessage, listening: string, options: RequestGuardOptions): Refusal | undefined {
  const host = request.headers.host ?? '';
  const allowed = [...loopback, listening, ...(options.allowedHosts ?? [])];
  if (!allowed.includes(host) && !allowed.includes(host.replace(/:\d+$/, ''))) {
    return { status: 403, message: `Host "${host}" is not this server (set allowedHosts to serve it under that name).` };
  }
  const origin = request.headers.origin;
  if (origin === undefined || options.allowedOrigins?.includes(origin)) return undefined;
  if (origin === `http://${host}` || origin === `https://${host}`) return undefined;
  return { status: 403, message: `Origin "${origin}" may not use this server (set allowedOrigins to let it).` };
}

/** Why the API request's body type is refused, or undefined. */
export function refuseContentType(request: IncomingMessage, options: RequestGuardOptions): Refusal | undefined {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const accepted = options.contentTypes ?? ['application/json'];
  if (accepted.includes(type)) return undefined;
  return { status: 415, message: `Content-Type "${type}" is not accepted: send ${accepted.join(' or ')}.` };
}

/** Headers every response carries: no framing by other sites, no content sniffing. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** The page's content security policy: loads nothing from elsewhere, framed by nobody. */
export const PAGE_CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
