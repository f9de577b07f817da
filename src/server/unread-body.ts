import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A request refused before its body was read (413 over the body limit, 405 on a published file)
 * leaves that body on the connection. Node does not drop it (the Web stream over the request counts
 * as its reader), so the parser never reached the next request of a keep-alive client and the
 * connection was reset at the keep-alive timeout. Up to this many bytes are read and dropped
 * before the answer, so the connection carries the next request.
 */
export const DRAIN_BYTES = 1024 * 1024;

/**
 * A larger body gets its answer with `Connection: close`; the server then ends its side and goes on
 * reading and dropping what the client still sends, for up to this long, so that the close is a
 * FIN the client reads after the answer, not a reset that can discard the answer.
 */
export const LINGER_MS = 5_000;

type Reader = ReadableStreamDefaultReader<Uint8Array>;

/** Requests that sent `Expect: 100-continue` and were not asked for their body (it is over the limit). */
const unasked = new WeakSet<IncomingMessage>();

/**
 * Node's 'checkContinue': a body declared over `limit` is not asked for (no `100 Continue`), so its
 * 413 goes at once rather than after the whole upload; any other is asked for, as Node would.
 */
export function answerExpectation(req: IncomingMessage, res: ServerResponse, limit: number): void {
  if (Number(req.headers['content-length']) > limit) unasked.add(req);
  else res.writeContinue();
}

/** Reads and drops up to `max` bytes; true when the body ended within them (false too if it failed). */
async function discard(reader: Reader, max: number): Promise<boolean> {
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      read += value.byteLength;
      if (read > max) return false;
    }
  } catch {
    return false;
  }
}

/** Ends our side after the answer and reads on until the client closes its side, or LINGER_MS. */
function lingeringClose(socket: Socket, reader: Reader): void {
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => clearTimeout(timer));
  void discard(reader, Infinity).then(() => reader.releaseLock());
}

/**
 * Settles what the app left of a request body before its answer is written: read and dropped when
 * it ends within DRAIN_BYTES (the connection stays open), else the answer closes the connection
 * after it, lingering as above.
 */
export async function settleBody(req: IncomingMessage, res: ServerResponse, request: Request): Promise<void> {
  // A body the parser has seen to its end no longer holds up the connection, read or not.
  // A body still held by a reader (none of the app's paths keeps one) cannot be drained here.
  if (!request.body || req.complete || request.body.locked) return;
  const reader = request.body.getReader();
  const declared = Number(req.headers['content-length']);
  // A body declared larger than the bound is not read at all before the answer.
  // Nor is a body the client was not asked for: it may never come.
  const ended = !(declared > DRAIN_BYTES) && !unasked.has(req) && (await discard(reader, DRAIN_BYTES));
  if (ended) return reader.releaseLock();
  res.setHeader('connection', 'close');
  // Node ends a `Connection: close` answer's socket with destroySoon(), which closes it as soon as
  // the answer is written, with the client's bytes unread: the kernel then answers with a reset.
  const socket = req.socket as Socket & { destroySoon?: () => void };
  socket.destroySoon = () => lingeringClose(socket, reader);
}
