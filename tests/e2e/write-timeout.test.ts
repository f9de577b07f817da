// Issue 28 (6): a connection whose answers the client never reads is dropped after
// WRITE_TIMEOUT_SECONDS (2 s here) without progress: five clients pipelining GET /openapi.json and
// reading nothing held their connections over 300 s. A stream whose client reads stays open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { openStream } from '../helpers/connection.ts';
import { get, TARGET, useServer } from '../helpers/server.ts';

const NODE_ONLY = TARGET === 'cloudflare' ? "the platform owns the sockets on Workers; this is the Node server's timeout" : false;
const site = useServer({ WRITE_TIMEOUT_SECONDS: '2', RATE_LIMIT: '0' });

const OPENAPI = 'GET /openapi.json HTTP/1.1\r\nhost: folio.test\r\n\r\n';

/**
 * A client that pipelines requests for a 150 KB answer and reads nothing (its socket paused), so
 * the server's writes block once the kernel's buffers are full. It goes on sending a request every
 * 100 ms: a write fails once the server has closed the connection. Resolves with the ms until then
 * (Infinity if the server has not closed it within `ms`).
 */
function stalledClient(base: string, ms: number): Promise<number> {
  const u = new URL(base);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(u.port), u.hostname, () => {
      socket.pause();
      socket.write(OPENAPI.repeat(200));
    });
    const probe = setInterval(() => socket.write(OPENAPI), 100);
    const done = (elapsed: number) => {
      clearInterval(probe);
      clearTimeout(limit);
      socket.destroy();
      resolve(elapsed);
    };
    const limit = setTimeout(() => done(Infinity), ms);
    socket.on('error', () => {});
    socket.once('close', () => done(Date.now() - started));
  });
}

test('a connection whose answers are not read is dropped after WRITE_TIMEOUT_SECONDS; others are answered meanwhile', { skip: NODE_ONLY, timeout: 30_000 }, async () => {
  const stalled = Array.from({ length: 5 }, () => stalledClient(site.url, 15_000));
  await new Promise((r) => setTimeout(r, 500));
  const meanwhile = await get(site.url, '/api/posts');
  assert.equal(meanwhile.status, 200, 'another client is answered while the stalled ones are held');
  const closedAfter = await Promise.all(stalled);
  for (const ms of closedAfter) {
    assert.ok(ms >= 2000 && ms < 6000, `dropped after ${ms} ms, expected 2 s of no progress (plus the time to fill the buffers)`);
  }
});

test('a stream whose client reads stays open past WRITE_TIMEOUT_SECONDS between its events', { skip: NODE_ONLY, timeout: 15_000 }, async () => {
  const stream = openStream(site.url, '/mcp/sse');
  try {
    await stream.until(() => stream.events.some((e) => e.event === 'endpoint'));
    await new Promise((r) => setTimeout(r, 4500));
    assert.equal(stream.state.ended, false, 'the stream is still open');
  } finally {
    stream.close();
  }
});
