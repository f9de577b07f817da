// Issue 28 (6): a connection whose answers the client never reads is dropped after
// WRITE_TIMEOUT_SECONDS (2 s here) without progress: five clients pipelining GET /openapi.json and
// reading nothing held their connections over 300 s. A stream whose client reads stays open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { openStream } from '../helpers/connection.ts';
import { get, TARGET, useServer } from '../helpers/server.ts';

const NODE_ONLY = TARGET === 'cloudflare' ? "the platform owns the sockets on Workers; this is the Node server's timeout" : false;
const MIN_SEND_RATE = 16384;
const site = useServer({ WRITE_TIMEOUT_SECONDS: '2', RATE_LIMIT: '0', MIN_SEND_RATE: String(MIN_SEND_RATE) });

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

const python = (() => {
  try {
    execFileSync('python3', ['-c', 'import socket; socket.TCP_INFO'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
})();
const SLOW_READER = new URL('../helpers/slow-reader.py', import.meta.url).pathname;

/** A client with a 4 KB receive buffer reading a byte a second: seconds until its connection was let go (null: still open at `cap`). */
async function slowReader(base: string, path: string, count: number, cap: number): Promise<number | null> {
  const { stdout } = await promisify(execFile)('python3', [SLOW_READER, new URL(base).port, path, String(cap), String(count)], { timeout: (cap + 20) * 1000, killSignal: 'SIGKILL' });
  return (JSON.parse(stdout) as { closedAfter: number | null }).closedAfter;
}

test('readers at a byte a second are let go: within WRITE_TIMEOUT_SECONDS plus the answer at MIN_SEND_RATE, queued answers at WRITE_TIMEOUT_SECONDS', { skip: NODE_ONLY || (!python && 'python3 is not installed (the slow reader needs SO_RCVBUF and TCP_INFO)'), timeout: 90_000 }, async () => {
  // Before: both still open after 40 s (1,000 such readers stayed open; 161 KB at 1 B/s is 45 hours).
  const size = (await get(site.url, '/openapi.json')).text.length;
  const [one, queued] = await Promise.all([slowReader(site.url, '/openapi.json', 1, 40), slowReader(site.url, '/openapi.json', 20, 40)]);
  const allowed = 2 + size / MIN_SEND_RATE;
  // The whole answer fits in the kernel's buffers: the connection is reset at its deadline (generous margins: a loaded machine).
  assert.ok(one !== null && one >= allowed - 2 && one <= allowed + 8, `one answer: let go after ${one} s, allowed ${allowed.toFixed(1)} s`);
  // Answers wait in the process: nothing leaves for WRITE_TIMEOUT_SECONDS, and the connection goes.
  assert.ok(queued !== null && queued <= 2 + 6, `20 pipelined answers: let go after ${queued} s, expected about 2 s`);
  // A reader at a normal rate is unaffected.
  const fast = await get(site.url, '/openapi.json');
  assert.equal(fast.text.length, size);
});
