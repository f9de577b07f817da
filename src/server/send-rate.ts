import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { answerOn } from './socket-answer.ts';

export interface SendRate {
  /** An answer with bytes waiting in this process that the client takes none of for this long is dropped. */
  stalledMs: number;
  /** Every answer must be taken within `stalledMs` plus its size at this many bytes a second. */
  minBytesPerSecond: number;
}

/** How often the rules are checked: the limits hold to within this. */
const TICK_MS = 500;

interface Watched {
  /** Bytes handed to the socket so far (answers and their headers). */
  sent: number;
  /** When the client must have taken them all, at the floor rate after a grace of `stalledMs`. */
  deadline: number;
  /** Bytes still in this process at the last look, and when that last went down. */
  held: number;
  progressAt: number;
}

/** Bytes of the socket's answers not yet in the kernel: the stream's buffer and libuv's queue. */
const heldBytes = (socket: Socket) => socket.writableLength + ((socket as Socket & { _handle?: { writeQueueSize?: number } | null })._handle?.writeQueueSize ?? 0);

const drop = (socket: Socket) => void socket.resetAndDestroy();

/**
 * A minimum transfer rate on every answer, as nginx's send_timeout with a floor on the rate:
 * Node's own socket timeout counts any progress, so a client reading a byte a second held an answer
 * (and its connection) for as long as the answer lasted (45 hours for 161 KB), and answers queued
 * behind it were let go at 62 s where 30 s was documented.
 *
 * Each connection has a deadline: `stalledMs` after its answers began, plus the time their bytes
 * take at `minBytesPerSecond` (answers pipelined one after another add up).
 *
 * - Stalled: bytes wait in this process and none has left for `stalledMs`: dropped.
 * - Too slow: bytes still wait here past the deadline: dropped, however they trickle.
 * - Idle after answers the kernel may still hold (all of a 161 KB answer fits in its buffers):
 *   the keep-alive close ends our side and waits until the deadline for the client to close its
 *   own (a client that has read everything does at once); only then is it reset. A plain close
 *   left the kernel delivering a byte a second, for as long as the client kept reading.
 *
 * Dropping is a reset, so the kernel lets go of what it holds too. A socket whose request is still
 * arriving belongs to Node's request timeouts; one whose answer is still being computed, with
 * nothing to write, is left alone.
 */
export function enforceSendRate(server: Server, rate: SendRate): () => void {
  const watched = new Map<Socket, Watched>();
  server.on('connection', (socket: Socket) => {
    watched.set(socket, { sent: 0, deadline: 0, held: 0, progressAt: Date.now() });
    socket.once('close', () => watched.delete(socket));
  });

  /** Every byte written extends the deadline by its time at the floor rate (the grace is not added twice). */
  function account(socket: Socket, w: Watched, now: number): void {
    const sent = socket.bytesWritten;
    if (sent > w.sent) w.deadline = Math.max(w.deadline, now + rate.stalledMs) + ((sent - w.sent) * 1000) / rate.minBytesPerSecond;
    w.sent = sent;
  }

  function check(socket: Socket, w: Watched, now: number): void {
    account(socket, w, now);
    const held = heldBytes(socket);
    if (held < w.held || held === 0) w.progressAt = now;
    w.held = held;
    // Stalled, or behind the floor rate with bytes still waiting here.
    if (held > 0 && (now - w.progressAt >= rate.stalledMs || now > w.deadline)) drop(socket);
  }

  const timer = setInterval(() => {
    const now = Date.now();
    for (const [socket, w] of watched) check(socket, w, now);
  }, TICK_MS);
  timer.unref();

  // Node's socket timeout now marks only an idle connection (keep-alive or a silent client): once
  // a server listens to 'timeout', Node closes none itself.
  server.timeout = rate.stalledMs;
  server.on('timeout', (socket: Socket) => {
    const w = watched.get(socket);
    if (!w) return void socket.destroy();
    // An answer under way is the ticker's; a connection already closing is waiting for its deadline.
    if (answerOn(socket) || heldBytes(socket) > 0 || socket.writableEnded) return;
    account(socket, w, Date.now());
    const wait = w.deadline - Date.now();
    if (!(wait > 0)) return void socket.destroy();
    socket.end();
    const timer = setTimeout(() => drop(socket), Math.min(wait, 2 ** 31 - 1));
    socket.once('close', () => clearTimeout(timer));
  });
  return () => clearInterval(timer);
}
