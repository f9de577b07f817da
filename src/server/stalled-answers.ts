import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { answerOn } from './socket-answer.ts';

/**
 * Drops a connection whose answer the client stopped reading: no byte of it taken for `ms`.
 * Without this, a client that pipelined requests and never read the answers held its connection
 * (and the answers' memory) for as long as it liked: only the request had timeouts.
 *
 * Node's socket timeout counts any progress (a read, a write the kernel took, a slow write still
 * advancing); here it fires only after `ms` of none. A stream whose client reads is never idle that
 * long (its pings are written); a socket whose answer is still being computed, with nothing
 * waiting to be written, is left alone, as is one whose request is still arriving (Node's request
 * timeouts own it). Idle keep-alive sockets close as Node closes them: once a server listens to
 * 'timeout', it closes none itself.
 */
export function dropStalledAnswers(server: Server, ms: number): void {
  server.timeout = ms;
  server.on('timeout', (socket: Socket) => {
    if (!answerOn(socket) || socket.writableLength > 0) socket.destroy();
  });
}
