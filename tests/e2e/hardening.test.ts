// Issue 17: every method and malformed request gets a deliberate JSON answer, limits cannot be
// dodged (MCP batches, legacy SSE sessions, TRUST_PROXY), timeouts fire at their stated values.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { call, openStream } from '../helpers/connection.ts';
import { get, startServer, TARGET, useServer, ONE_WINDOW } from '../helpers/server.ts';

const site = useServer({ MCP_SSE_SESSIONS_PER_CLIENT: '2', MCP_SSE_IDLE_SECONDS: '2', TRUST_PROXY: '1' });
const NODE_ONLY = TARGET === 'cloudflare' ? "the Workers preview's proxy answers malformed requests and CONNECT itself, before the worker" : false;

/** Bytes written on a socket of their own, and everything the server sent until it closed (or a time limit). */
function rawExchange(base: string, bytes: string, ms = 5000): Promise<{ text: string; closedAfterMs: number; error?: string }> {
  const u = new URL(base);
  const started = Date.now();
  return new Promise((resolve) => {
    let text = '';
    let error: string | undefined;
    const socket = connect(Number(u.port), u.hostname, () => socket.write(bytes));
    const timer = setTimeout(() => socket.destroy(), ms);
    socket.on('data', (c) => (text += c.toString()));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => (clearTimeout(timer), resolve({ text, closedAfterMs: Date.now() - started, error })));
  });
}

/** The rate-limit headers every JSON answer carries (SERVICE.md), on a raw answer. */
const assertRateHeaders = (text: string, label: string) => {
  for (const name of ['limit', 'remaining', 'reset']) assert.match(text.slice(0, text.indexOf('\r\n\r\n')), new RegExp(`\r\nx-ratelimit-${name}: \\d+\r\n`, 'i'), `${label}: X-RateLimit-${name}`);
};

/** The JSON body of a raw answer (the last one in `text`), chunked or not. */
function jsonBody(text: string): { error: string } {
  const start = text.lastIndexOf('HTTP/1.1 ');
  const split = text.indexOf('\r\n\r\n', start);
  let body = text.slice(split + 4);
  if (/\r\ntransfer-encoding: chunked\r\n/i.test(text.slice(start, split + 2))) {
    let out = '';
    for (let at = 0; ; ) {
      const eol = body.indexOf('\r\n', at);
      const size = parseInt(body.slice(at, eol), 16);
      if (!size) break;
      out += body.slice(eol + 2, eol + 2 + size);
      at = eol + 2 + size + 2;
    }
    body = out;
  }
  return JSON.parse(body) as { error: string };
}

const mcp = (body: unknown, headers: Record<string, string> = {}) => get(site.url, '/mcp', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const toolCall = (id: number, params: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });

describe('methods', () => {
  test('TRACE, TRACK and methods no path answers: 405 JSON with Allow, never a 5xx', async () => {
    // workerd answers methods it does not know (TRACK, FOO) 501 itself, before any worker runs.
    if (TARGET === 'cloudflare') console.log('TRACK not sent: workerd answers unknown methods 501 before the worker');
    for (const method of TARGET === 'cloudflare' ? ['TRACE', 'PUT', 'DELETE', 'PATCH'] : ['TRACE', 'TRACK', 'PUT', 'DELETE', 'PATCH']) {
      for (const path of ['/', '/api/posts', '/graphql', '/openapi.json', '/the-slow-web']) {
        const r = await call(site.url, path, { method });
        assert.equal(r.status, 405, `${method} ${path}`);
        assert.match(String(r.headers['content-type']), /^application\/json/, `${method} ${path}`);
        assert.equal(typeof JSON.parse(r.body).error, 'string');
        assert.match(String(r.headers.allow), /GET/, `${method} ${path} has Allow`);
        assert.equal(r.headers['access-control-allow-origin'], '*');
      }
    }
    assert.equal((await call(site.url, '/graphql', { method: 'TRACE' })).headers.allow, 'GET, POST, HEAD, OPTIONS');
  });

  test('CONNECT and an unknown method: 405 JSON on the socket', { skip: NODE_ONLY }, async () => {
    for (const line of ['CONNECT 127.0.0.1:80 HTTP/1.1', 'FOO / HTTP/1.1']) {
      const { text } = await rawExchange(site.url, `${line}\r\nHost: 127.0.0.1\r\n\r\n`);
      assert.match(text, /^HTTP\/1\.1 405 /, line);
      assert.match(text, /\r\nallow: GET, HEAD, POST, OPTIONS\r\n/i, line);
      assert.match(text, /\r\ncontent-type: application\/json/i, line);
      assert.equal(typeof jsonBody(text).error, 'string');
      assertRateHeaders(text, line);
    }
  });

  test('a request the parser refuses: 400 JSON, and the connection closes', { skip: NODE_ONLY }, async () => {
    const { text, closedAfterMs } = await rawExchange(site.url, 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n');
    assert.match(text, /^HTTP\/1\.1 400 /);
    assert.equal(typeof jsonBody(text).error, 'string');
    assertRateHeaders(text, 'the parser\'s 400');
    assert.ok(closedAfterMs < 2000, `closed after ${closedAfterMs} ms`);
  });

  test('headers (10 s) and whole requests (30 s) time out at their stated values, with a JSON 408', { skip: NODE_ONLY, timeout: 45_000 }, async () => {
    const u = new URL(site.url);
    // One sends its headers a byte a second; the other its body; both stay busy, neither finishes.
    const trickle = (head: string, tail: string) =>
      new Promise<{ text: string; ms: number }>((resolve) => {
        const started = Date.now();
        let text = '';
        const socket = connect(Number(u.port), u.hostname, () => socket.write(head));
        const timer = setInterval(() => socket.write(tail), 1000);
        socket.on('data', (c) => (text += c.toString()));
        socket.on('error', () => {});
        socket.on('close', () => (clearInterval(timer), resolve({ text, ms: Date.now() - started })));
      });
    const [headers, body] = await Promise.all([
      trickle('GET /api/posts HTTP/1.1\r\nHost: x\r\n', 'X'),
      trickle('POST /api/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n', ' '),
    ]);
    assert.ok(headers.ms >= 9_500 && headers.ms <= 12_000, `headers timed out after ${headers.ms} ms`);
    assert.match(headers.text, /^HTTP\/1\.1 408 /);
    assertRateHeaders(headers.text, 'the 408 for headers');
    assert.ok(body.ms >= 29_500 && body.ms <= 32_000, `the request timed out after ${body.ms} ms`);
    assert.match(body.text, /^HTTP\/1\.1 408 /);
    assertRateHeaders(body.text, 'the 408 for a body');
  });
});

describe('malformed requests are 400 JSON', () => {
  test('GraphQL: bad GET variables, other body types, event-stream only, no query', async () => {
    const gql = (init: RequestInit & { path?: string }) => get(site.url, init.path ?? '/graphql', init);
    const cases: [string, Promise<Awaited<ReturnType<typeof get>>>, number][] = [
      ['GET variables=notjson', gql({ path: '/graphql?query=%7Bsite%7Bname%7D%7D&variables=notjson' }), 400],
      ['GET variables=[1]', gql({ path: '/graphql?query=%7Bsite%7Bname%7D%7D&variables=%5B1%5D', headers: { accept: 'application/graphql-response+json' } }), 400],
      ['POST text/plain', gql({ method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"query":"{site{name}}"}' }), 415],
      ['POST form', gql({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'query=%7Bsite%7Bname%7D%7D' }), 415],
      ['POST event-stream only', gql({ method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: '{"query":"{site{name}}"}' }), 406],
      ['POST {}', gql({ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), 400],
    ];
    for (const [name, pending, status] of cases) {
      const r = await pending;
      assert.equal(r.status, status, name);
      assert.match(r.headers.get('content-type')!, /json/, name);
      assert.equal(r.json.errors[0].extensions.code, 'BAD_USER_INPUT', name);
      assert.equal(typeof r.json.errors[0].message, 'string', name);
    }
  });

  test('query strings with bad percent-encoding, /ask?streaming=maybe, and the same inside a batch', async () => {
    for (const path of ['/api/search?q=%zz%', '/api/posts?lang=%E0%A4%A', '/openapi.json?x=%', '/ask?query=tide&streaming=maybe']) {
      const r = await get(site.url, path);
      assert.equal(r.status, 400, path);
      assert.equal(typeof r.json.error, 'string', path);
    }
    const batch = await get(site.url, '/api/batch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ requests: [{ path: '/api/search?q=%zz%' }] }) });
    assert.equal(batch.json.results[0].status, 400);
  });

  test('MCP: an empty batch is -32600; bad tool arguments are -32602 with a clear message and one prefix', async () => {
    const empty = await mcp([]);
    assert.equal(empty.status, 400);
    assert.equal(empty.json.error.code, -32600);
    for (const args of [[], null, 'x']) {
      const r = await mcp(toolCall(1, { name: 'search_posts', arguments: args }));
      assert.equal(r.json.error.code, -32602, JSON.stringify(args));
      assert.match(r.json.error.message, /"arguments" must be an object/);
    }
    const unknown = await mcp(toolCall(2, { name: 'nope', arguments: {} }));
    assert.equal(unknown.json.error.code, -32602);
    assert.doesNotMatch(unknown.json.error.message, /MCP error/, 'the client adds the prefix, once');
  });
});

describe('limits', () => {
  test('each message of an MCP batch is charged like a batch sub-request', async () => {
    const limited = await startServer({ RATE_LIMIT: '10', ...ONE_WINDOW });
    try {
      const post = (body: unknown) => get(limited.url, '/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const first = await post(Array.from({ length: 4 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' })));
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('x-ratelimit-remaining'), '5', 'the POST and its 4 messages');
      const over = await post(Array.from({ length: 20 }, (_, i) => toolCall(i, { name: 'list_posts', arguments: {} })));
      assert.equal(over.status, 429);
      assert.ok(Number(over.headers.get('retry-after')) >= 1);
      assert.equal(typeof over.json.error, 'string');
    } finally {
      await limited.stop();
    }
  });

  test('legacy MCP SSE sessions are capped per client, and an idle one is closed', { timeout: 20_000 }, async () => {
    const a = { 'x-forwarded-for': '198.51.100.1' };
    const mine = [openStream(site.url, '/mcp/sse', a), openStream(site.url, '/mcp/sse', a)];
    try {
      await Promise.all(mine.map((s) => s.until(() => s.events.some((e) => e.event === 'endpoint'))));
      const third = await call(site.url, '/mcp/sse', { headers: { ...a, accept: 'text/event-stream' } });
      assert.equal(third.status, 429, 'a third session for the same client');
      assert.equal(typeof JSON.parse(third.body).error, 'string');
      const other = openStream(site.url, '/mcp/sse', { 'x-forwarded-for': '198.51.100.2' });
      await other.until(() => other.events.some((e) => e.event === 'endpoint'));
      other.close();
      // One session keeps talking; the other stays silent past MCP_SSE_IDLE_SECONDS (2 s).
      const endpoint = mine[0]!.events.find((e) => e.event === 'endpoint')!.data;
      const started = Date.now();
      while (Date.now() - started < 3500) {
        const r = await call(site.url, endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
        assert.equal(r.status, 202, 'the talking session stays open');
        await new Promise((r) => setTimeout(r, 500));
      }
      await mine[1]!.until(() => mine[1]!.state.ended, 3000);
      assert.equal(mine[0]!.state.ended, false);
      const again = openStream(site.url, '/mcp/sse', a);
      await again.until(() => again.events.some((e) => e.event === 'endpoint'));
      again.close();
    } finally {
      for (const s of mine) s.close();
    }
  });
});

describe('JSON nesting', () => {
  // Parsing such a body works (V8's JSON.parse does not recurse); what followed it did: with paid
  // contact relayed between workers, posting it overflowed the stack in a 500.
  const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  test('a body nested past 64 levels is 413 JSON on every surface that reads JSON, before anything else; 64 levels are read', async () => {
    const paths = ['/api/batch', '/graphql', '/mcp', '/mcp/messages?sessionId=nope', '/ask', '/contact/send', '/sandbox/api/batch', '/sandbox/graphql', '/sandbox/mcp', '/sandbox/ask', '/sandbox/contact/send'];
    for (const path of paths) {
      for (const body of [deep(20_000), deepObject(65), `{"query": "x", "more": ${deep(65)}}`]) {
        const r = await get(site.url, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        assert.equal(r.status, 413, `${path} ${body.slice(0, 20)}`);
        assert.match(r.json.error, /nested too deeply.*64/, path);
        assert.ok(r.headers.get('x-ratelimit-limit'), `${path} has the rate-limit headers`);
      }
      // At the limit (and with brackets inside strings, which do not nest) the surface answers as before.
      const fine = await get(site.url, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"s": "${'['.repeat(100)}", "d": ${deep(63)}}` });
      assert.notEqual(fine.status, 413, path);
      assert.notEqual(fine.status, 500, path); // contact is off here: 503
    }
    assert.equal((await get(site.url, '/status')).status, 200);
  });
});

describe('HTTP framing', () => {
  test('headers over 16 KiB: 431 JSON with the rate-limit headers, then a clean close (no reset) every time', { skip: NODE_ONLY }, async () => {
    // The server closed with the rest of the header unread, so the kernel answered the client's
    // bytes with a reset: 4 of 10 such sockets here (4 of 20 undici clients) got ECONNRESET, which
    // can discard the answer before it is read.
    const big = `GET /api/posts HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(64 * 1024)}\r\n\r\n`;
    for (let i = 0; i < 20; i++) {
      const { text, error } = await rawExchange(site.url, big);
      assert.equal(error, undefined, `try ${i}: the connection was not reset`);
      assert.match(text, /^HTTP\/1\.1 431 /, `try ${i}`);
      assert.equal(typeof jsonBody(text).error, 'string');
      assertRateHeaders(text, `try ${i}`);
    }
    const tries = await Promise.all(Array.from({ length: 20 }, () => get(site.url, '/api/posts', { headers: { 'x-big': 'x'.repeat(64 * 1024) } }).catch((e: Error) => e)));
    assert.deepEqual(tries.map((t) => (t instanceof Error ? String(t.cause ?? t) : t.status)), Array(20).fill(431), 'undici reads every 431');
  });

  test('two Host headers: 400 JSON (RFC 9112), on published files and computed answers alike', { skip: NODE_ONLY }, async () => {
    for (const path of ['/', '/api/posts', '/openapi.json', '/api/search?q=web']) {
      const { text } = await rawExchange(site.url, `GET ${path} HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n`);
      assert.match(text, /^HTTP\/1\.1 400 /, path);
      assert.match(jsonBody(text).error, /Host/, path);
      assertRateHeaders(text, path);
    }
    const one = await rawExchange(site.url, 'GET /api/posts HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n');
    assert.match(one.text, /^HTTP\/1\.1 200 /);
  });

  test('Expect: 100-continue over the body limit: 413 at once, never 100 Continue; within it: 100 Continue, then the answer', { skip: NODE_ONLY }, async () => {
    const u = new URL(site.url);
    // The client waits for the server's word before it sends the body, as curl does (for up to 1 s).
    const expecting = (length: number) =>
      new Promise<{ text: string; firstMs: number }>((resolve) => {
        const started = Date.now();
        let text = '';
        let firstMs = -1;
        let sent = false;
        const socket = connect(Number(u.port), u.hostname, () =>
          socket.write(`POST /api/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`),
        );
        const timer = setTimeout(() => socket.destroy(), 10_000);
        socket.on('data', (c) => {
          if (firstMs < 0) firstMs = Date.now() - started;
          text += c.toString();
          // Written, not ended: Node drops the answer to a client that half-closes first.
          if (/^HTTP\/1\.1 100 /.test(text) && length < 1000 && !sent) {
            sent = true;
            socket.write(JSON.stringify({ requests: [{ path: '/api/site' }] }).padEnd(length, ' '));
          }
        });
        socket.on('error', () => {});
        socket.on('close', () => (clearTimeout(timer), resolve({ text, firstMs })));
      });
    const over = await expecting(10 * 1024 * 1024);
    assert.match(over.text, /^HTTP\/1\.1 413 /, over.text.slice(0, 40));
    assert.ok(over.firstMs < 3000, `answered after ${over.firstMs} ms`);
    assert.match(jsonBody(over.text).error, /too large/);
    assertRateHeaders(over.text, 'the 413');
    const within = await expecting(200);
    assert.match(within.text, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  });
});
