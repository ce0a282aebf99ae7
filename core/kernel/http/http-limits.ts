import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../logger.js';

/**
 * What one client may hold of the HTTP server. Long polls and streams are not cut by the idle
 * timeout: they raise their own socket's timeout (`holdConnection`), and the request and header
 * timeouts only cover receiving a request, never the time a response takes.
 */
export interface HttpLimits {
  /** A request whose headers are not complete by then gets 408 and is closed (slowloris). */
  readonly headersTimeoutMs: number;
  /** A request not received whole by then (headers and body) gets 408 and is closed. */
  readonly requestTimeoutMs: number;
  /** A connection on which nothing moves for this long is closed (unless a route holds it). */
  readonly idleTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections from one IP address at most; the next is closed at once. 0: no cap. */
  readonly maxConnectionsPerIp: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 30_000,
  requestTimeoutMs: 600_000,
  idleTimeoutMs: 120_000,
  keepAliveTimeoutMs: 72_000,
  maxConnectionsPerIp: 256,
};

/** How often node checks the header and request deadlines (its default, 30 s, would stretch short timeouts). */
export function connectionsCheckingInterval(limits: HttpLimits): number {
  return Math.max(100, Math.min(1000, Math.floor(limits.headersTimeoutMs / 2)));
}

/**
 * Closes a TCP connection beyond `maxConnectionsPerIp` open ones from its address, before any byte
 * of it is read. Connections over a Unix socket (no remote address) are not counted.
 */
export function capConnectionsPerIp(server: Server, limits: HttpLimits, logger: Logger): void {
  if (limits.maxConnectionsPerIp <= 0) return;
  const open = new Map<string, number>();
  let lastWarning = 0;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > limits.maxConnectionsPerIp) {
      socket.destroy();
      const now = Date.now();
      if (now - lastWarning > 60_000) {
        lastWarning = now;
        logger.warn({ address, limit: limits.maxConnectionsPerIp }, 'connection refused: too many open connections from one address (SVC_MAX_CONNECTIONS_PER_IP)');
      }
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/** What a held response adds to its hold before its socket counts as idle. */
const HOLD_MARGIN_MS = 30_000;

/**
 * Exempts one long poll from the idle timeout: its socket may stay silent for `holdMs` (plus a
 * margin) while the answer waits. Node restores the server's idle timeout on the connection's
 * next request.
 */
export function holdConnection(response: { setTimeout(ms: number): unknown }, holdMs: number): void {
  response.setTimeout(holdMs + HOLD_MARGIN_MS);
}
