/**
 * Who may talk to the chat handler. It runs agents with tools, so a web page
 * elsewhere must not drive it: the `Host` must name this server (a DNS-rebound page
 * sends its own name), an `Origin` must be the page's own (browsers send it with
 * every cross-site POST, `no-cors` fetches and form posts included), and the API
 * takes JSON only (a content type no form or `no-cors` request can send without a
 * CORS preflight, which this handler never grants).
 */

/** Options of the checks (see ChatHandlerOptions). */
export interface RequestGuardOptions {
  /**
   * Host names (or `host:port`) accepted besides loopback (`localhost`, `127.0.0.1`,
   * `[::1]`). A server that listens on another address or name lists it here.
   */
  allowedHosts?: readonly string[] | undefined;
  /** Origins (e.g. `https://chat.example`) accepted besides the server's own (`http(s)://<its Host>`). */
  allowedOrigins?: readonly string[] | undefined;
  /** Content types the API accepts. Default `application/json` only. */
  contentTypes?: readonly string[] | undefined;
}

const loopback = ['localhost', '127.0.0.1', '[::1]'];

/** A refused request: the status and why. */
export interface Refusal {
  status: number;
  message: string;
}

/**
 * Why the request may not be served (any route), or undefined. The `Host` header and
 * the URL's host must both be allowed: a server that builds the URL from something
 * else (an absolute request target, a proxy's header) cannot be talked past.
 */
export function refuseCaller(request: Request, options: RequestGuardOptions): Refusal | undefined {
  const urlHost = new URL(request.url).host;
  const host = request.headers.get('host') ?? urlHost;
  const allowed = [...loopback, ...(options.allowedHosts ?? [])].map((name) => name.toLowerCase());
  const isAllowed = (name: string) => allowed.includes(name) || allowed.includes(name.replace(/:\d{1,5}$/, ''));
  for (const name of new Set([host.toLowerCase(), urlHost])) {
    if (!isAllowed(name)) {
      return { status: 403, message: `Host "${name}" is not this server (set allowedHosts to serve it under that name).` };
    }
  }
  const origin = request.headers.get('origin');
  if (origin === null || options.allowedOrigins?.includes(origin)) return undefined;
  if (origin === `http://${host}` || origin === `https://${host}`) return undefined;
  return { status: 403, message: `Origin "${origin}" may not use this server (set allowedOrigins to let it).` };
}

/** Why the API request's body type is refused, or undefined. */
export function refuseContentType(request: Request, options: RequestGuardOptions): Refusal | undefined {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
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

/** A content security policy for a chat page served beside the handler: loads nothing from elsewhere, framed by nobody. */
export const PAGE_CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
