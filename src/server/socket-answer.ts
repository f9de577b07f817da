import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ALLOW_METHODS, CORS_HEADERS } from '../app/policies/cors.ts';
import { SECURITY_HEADERS } from '../app/policies/security.ts';

/** A client's headers must arrive within 10 s of connecting; its whole request within 30 s. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * What Node's HTTP server answers before the app sees a request (a CONNECT, a request it cannot
 * parse, one too slow): the app's JSON error with its policy headers, written on the socket, which
 * then closes.
 */
export function answerSocket(socket: Duplex, status: number, error: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error });
  const all = { ...CORS_HEADERS, ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(body)), connection: 'close', ...headers };
  const head = Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  // Closed once written, whether or not the client closes its side.
  socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`, () => socket.destroy());
}

/** The answer Node's HTTP server is writing on a socket, if any (it keeps it there). */
export const answerOn = (socket: Duplex) => (socket as Duplex & { _httpMessage?: { headersSent: boolean } | null })._httpMessage ?? undefined;

/** CONNECT asks for a tunnel, which this server never opens. */
export function refuseConnect(socket: Duplex): void {
  answerSocket(socket, 405, 'Method CONNECT not allowed: this server opens no tunnels.', { allow: ALLOW_METHODS });
}

/** A request Node's parser refused or timed out: the status it deserves, in JSON. */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // Node's own rule: a socket that cannot be written, or whose answer has begun, is only closed.
  if (!socket.writable || answerOn(socket)?.headersSent) {
    socket.destroy();
    return;
  }
  switch (error.code) {
    case 'HPE_INVALID_METHOD':
      return answerSocket(socket, 405, 'Unknown method.', { allow: ALLOW_METHODS });
    case 'HPE_HEADER_OVERFLOW':
      return answerSocket(socket, 431, 'Request headers too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return answerSocket(socket, 408, `Request timeout: headers must arrive within ${HEADERS_TIMEOUT_MS / 1000} s and the whole request within ${REQUEST_TIMEOUT_MS / 1000} s.`);
    default:
      return answerSocket(socket, 400, `Malformed HTTP request${error.code ? ` (${error.code})` : ''}.`);
  }
}
