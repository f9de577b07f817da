import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ALLOW_METHODS, CORS_HEADERS } from '../app/policies/cors.ts';
import { SECURITY_HEADERS } from '../app/policies/security.ts';
import { rateHeaders, type RateDecision } from '../app/policies/rate-limit.ts';
import { LINGER_MS } from './unread-body.ts';

/** A client's headers must arrive within 10 s of connecting; its whole request within 30 s. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;

/** The rate-limit decision for a request that never reached the app, counted against its socket's address. */
export type SocketRate = (socket: Duplex) => RateDecision | undefined | Promise<RateDecision | undefined>;

/** The answer Node's HTTP server is writing on a socket, if any (it keeps it there). */
export const answerOn = (socket: Duplex) => (socket as Duplex & { _httpMessage?: { headersSent: boolean } | null })._httpMessage ?? undefined;

/**
 * Ends our side once the answer is written and reads and drops what the client still sends until
 * it closes its side (or LINGER_MS): a socket closed with the client's bytes unread (the rest of a
 * 64 KiB header) is reset by the kernel, and a reset can discard the answer before the client
 * reads it (4 of 10 raw sockets and 4 of 20 undici clients were reset after a 431).
 */
function closeGracefully(socket: Duplex): void {
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => clearTimeout(timer));
  socket.on('data', () => {});
  socket.resume();
}

/**
 * What Node's HTTP server answers before the app sees a request (a CONNECT, a request it cannot
 * parse, one too slow): the app's JSON error with its policy and rate-limit headers (the request
 * counts, as the app's own 400s do), written on the socket, which then closes.
 */
export function socketAnswers(rate: SocketRate) {
  // Node's parser reports the same error again for bytes that arrive after it: one answer a socket.
  const answered = new WeakSet<Duplex>();

  async function answerSocket(socket: Duplex, status: number, error: string, headers: Record<string, string> = {}): Promise<void> {
    if (answered.has(socket)) return;
    answered.add(socket);
    let decided: RateDecision | undefined;
    try {
      decided = await rate(socket);
    } catch {
      // A store that is away leaves the answer without the headers, as the app does.
    }
    if (!socket.writable) return void socket.destroy();
    const body = JSON.stringify({ error });
    const all = {
      ...CORS_HEADERS,
      ...SECURITY_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...(decided ? rateHeaders(decided) : {}),
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
      ...headers,
    };
    const head = Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
    closeGracefully(socket);
  }

  return {
    /** CONNECT asks for a tunnel, which this server never opens. */
    refuseConnect(socket: Duplex): void {
      void answerSocket(socket, 405, 'Method CONNECT not allowed: this server opens no tunnels.', { allow: ALLOW_METHODS });
    },

    /** A request Node's parser refused or timed out: the status it deserves, in JSON. */
    answerClientError(error: Error & { code?: string }, socket: Duplex): void {
      if (answered.has(socket)) return;
      // Node's own rule: a socket that cannot be written, or whose answer has begun, is only closed.
      if (!socket.writable || answerOn(socket)?.headersSent) {
        socket.destroy();
        return;
      }
      switch (error.code) {
        case 'HPE_INVALID_METHOD':
          return void answerSocket(socket, 405, 'Unknown method.', { allow: ALLOW_METHODS });
        case 'HPE_HEADER_OVERFLOW':
          return void answerSocket(socket, 431, 'Request headers too large.');
        case 'ERR_HTTP_REQUEST_TIMEOUT':
          return void answerSocket(socket, 408, `Request timeout: headers must arrive within ${HEADERS_TIMEOUT_MS / 1000} s and the whole request within ${REQUEST_TIMEOUT_MS / 1000} s.`);
        default:
          return void answerSocket(socket, 400, `Malformed HTTP request${error.code ? ` (${error.code})` : ''}.`);
      }
    },
  };
}
