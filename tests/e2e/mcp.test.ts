import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { DISCONNECT_UNSEEN, get, TARGET, useServer } from '../helpers/server.ts';
import { corpus } from '../helpers/corpus.ts';

const site = useServer();
const run = promisify(execFile);

const TRANSPORTS: Record<string, (base: string) => Transport> = {
  'streamable HTTP': (base) => new StreamableHTTPClientTransport(new URL(`${base}/mcp`)),
  'legacy SSE': (base) => new SSEClientTransport(new URL(`${base}/mcp/sse`)),
};

async function connect(kind: string, base = site.url) {
  const client = new Client({ name: 'folio-tests', version: '1.0.0' });
  await client.connect(TRANSPORTS[kind]!(base));
  return client;
}

type Result = { isError?: boolean; structuredContent?: unknown; content: { type: string; text?: string }[] };
const textOf = (r: Result) => r.content.map((c) => c.text ?? '').join('\n');

for (const kind of Object.keys(TRANSPORTS)) {
  describe(`MCP over ${kind} with the SDK client`, () => {
    test('initialize and list the three tools with input and output schemas', async () => {
      const client = await connect(kind);
      try {
        assert.ok(client.getServerVersion()?.name);
        const { tools } = await client.listTools();
        // SERVICE.md: the MCP tools are exactly these three (citing is a resource template).
        assert.deepEqual(tools.map((t) => t.name).sort(), ['get_post', 'list_posts', 'search_posts']);
        for (const tool of tools) {
          assert.equal(tool.inputSchema.type, 'object');
          assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an outputSchema`);
          assert.ok(tool.description && tool.description.length > 20);
        }
      } finally {
        await client.close();
      }
    });

    test('each tool returns the REST envelope as structuredContent (validated by the client against outputSchema) and a text rendering', async () => {
      const { posts, find } = await corpus('content');
      const translated = find('available');
      const client = await connect(kind);
      try {
        const cases: [string, Record<string, unknown>, string][] = [
          ['list_posts', { lang: 'fr', per_page: 3 }, '/api/posts?lang=fr&per_page=3'],
          ['list_posts', { lang: 'de', fallback: 'en', page: 2, per_page: 5 }, '/api/posts?lang=de&fallback=en&page=2&per_page=5'],
          ['get_post', { slug: posts[0]!.slug }, `/api/posts/${posts[0]!.slug}`],
          ['get_post', { slug: translated.slug, lang: translated.lang }, `/api/posts/${translated.slug}?lang=${translated.lang}`],
          ['search_posts', { query: 'web', lang: 'en', per_page: 4 }, '/api/search?q=web&lang=en&per_page=4'],
        ];
        const tags = (await get(site.url, '/api/tags')).json.data;
        cases.push(['list_posts', { tag: tags[0].slug }, `/api/tags/${tags[0].slug}`]);
        for (const [name, args, rest] of cases) {
          const result = (await client.callTool({ name, arguments: args })) as Result;
          assert.notEqual(result.isError, true, `${name} ${JSON.stringify(args)}: ${textOf(result)}`);
          assert.deepEqual(result.structuredContent, (await get(site.url, rest)).json, `${name} equals ${rest}`);
          const body = result.structuredContent as { data: { title: string } | { title: string }[] };
          const first = Array.isArray(body.data) ? body.data[0] : body.data;
          if (first) assert.ok(textOf(result).includes(first.title), 'the text names the post');
        }
      } finally {
        await client.close();
      }
    });

    test('the search text counts its results in the singular for one, the plural for more', async () => {
      const client = await connect(kind);
      try {
        const heading = async (query: string) => textOf((await client.callTool({ name: 'search_posts', arguments: { query } })) as Result).split('\n')[0];
        assert.equal(await heading('tide'), '1 result for “tide” (language en):');
        assert.match((await heading('the'))!, /^\d+ results for “the” \(language en\):$/);
      } finally {
        await client.close();
      }
    });

    test('bad arguments give isError results, never a protocol failure', async () => {
      const { find } = await corpus('content');
      const missing = find('missing');
      const client = await connect(kind);
      try {
        const bad: [string, Record<string, unknown>, RegExp][] = [
          ['list_posts', { lang: 'xx' }, /Unsupported language/],
          ['list_posts', { per_page: 500 }, /per_page/],
          ['list_posts', { page: 0 }, /page/],
          ['list_posts', { category: 'a', tag: 'b' }, /not both/],
          ['list_posts', { category: 'no-such-category' }, /not found/],
          ['get_post', {}, /slug/],
          ['get_post', { slug: 'no-such-post' }, /not found/],
          ['get_post', { slug: missing.slug, lang: missing.lang }, /fallback=en/],
          ['search_posts', {}, /\?q=/],
          ['search_posts', { query: '   ' }, /\?q=/],
          ['search_posts', { query: 'x'.repeat(257) }, /256/],
          ['search_posts', { query: { nested: true } }, /string/],
        ];
        for (const [name, args, message] of bad) {
          const result = (await client.callTool({ name, arguments: args })) as Result;
          assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
          assert.match(textOf(result), message, `${name} ${JSON.stringify(args)}`);
        }
        await assert.rejects(client.callTool({ name: 'delete_everything', arguments: {} }), /Unknown tool/);
      } finally {
        await client.close();
      }
    });

    test('posts are resources: listed with their page URL, read as the Markdown twin', async () => {
      const client = await connect(kind);
      try {
        const { resources } = await client.listResources();
        assert.ok(resources.length > 12, 'every available post-language');
        const fr = resources.find((r) => /\/fr\/[a-z0-9-]+$/.test(r.uri))!;
        assert.ok(fr, 'a French post');
        for (const resource of [resources[0]!, fr]) {
          const read = await client.readResource({ uri: resource.uri });
          const twin = await get(site.url, `${new URL(resource.uri).pathname}.md`);
          assert.equal((read.contents[0] as { text: string }).text, twin.text);
        }
        const { resourceTemplates } = await client.listResourceTemplates();
        assert.equal(resourceTemplates.length, 3);
        await assert.rejects(client.readResource({ uri: 'http://elsewhere.example/x' }), /not found/i);
      } finally {
        await client.close();
      }
    });

    test("a post's citation is a resource template whose reads are the REST /cite answer", async () => {
      const { find } = await corpus('content');
      const translated = find('available');
      const missing = find('missing');
      const client = await connect(kind);
      try {
        const { resourceTemplates } = await client.listResourceTemplates();
        const template = resourceTemplates.find((t) => t.name === 'post-citation');
        assert.ok(template, 'a citation template');
        assert.equal(template.mimeType, 'application/json');
        assert.match(template.uriTemplate, /\/api\/posts\/\{slug\}\/cite\{\?lang,fallback\}$/);
        const origin = template.uriTemplate.slice(0, template.uriTemplate.indexOf('/api/posts/'));
        for (const rest of [`/api/posts/${translated.slug}/cite?lang=${translated.lang}`, `/api/posts/${missing.slug}/cite?lang=${missing.lang}&fallback=en`, `/api/posts/${translated.slug}/cite`]) {
          const read = await client.readResource({ uri: `${origin}${rest}` });
          const content = read.contents[0] as { text: string; mimeType: string };
          assert.equal(content.mimeType, 'application/json');
          assert.deepEqual(JSON.parse(content.text), (await get(site.url, rest)).json, rest);
        }
        await assert.rejects(client.readResource({ uri: `${origin}/api/posts/no-such-post/cite` }), /not found/i);
        await assert.rejects(client.readResource({ uri: `${origin}/api/posts/${missing.slug}/cite?lang=${missing.lang}` }), /fallback=en/);
        const docs = await get(site.url, '/mcp/docs');
        assert.match(docs.text, /Citing a post/);
        assert.ok(docs.text.includes(template.uriTemplate.replace(/^https?:\/\/[^/]+/, '')), '/mcp/docs names the template');
      } finally {
        await client.close();
      }
    });
  });
}

describe('MCP over HTTP: stateless rules and security', () => {
  const rpc = (body: unknown, headers: Record<string, string> = {}, path = '/mcp') =>
    get(site.url, path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  test('tools/call works without initialize, and with Accept: application/json alone', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_posts', arguments: { per_page: 2 } } }, { accept: 'application/json' });
    assert.equal(res.status, 200);
    assert.equal(res.json.id, 7);
    assert.deepEqual(res.json.result.structuredContent, (await get(site.url, '/api/posts?per_page=2')).json);
    assert.equal(res.headers.get('mcp-session-id'), null, 'no session');
  });

  test('a batch over 100 messages is -32600 before anything is charged; unknown tool arguments are ignored, as the schemas say', async () => {
    const before = Number((await get(site.url, '/api/site')).headers.get('x-ratelimit-remaining'));
    const res = await rpc(Array.from({ length: 150 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' })));
    assert.equal(res.status, 400);
    assert.equal(res.json.error.code, -32600);
    assert.match(res.json.error.message, /at most 100/);
    assert.equal(Number(res.headers.get('x-ratelimit-remaining')), before - 1, 'only the POST was counted');
    const listed = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    for (const tool of listed.json.result.tools) assert.notEqual(tool.inputSchema.additionalProperties, false, `${tool.name} says unknown arguments are refused`);
    const called = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_posts', arguments: { per_page: 1, bogus: 1 } } });
    assert.equal(called.json.result.isError, undefined);
    assert.deepEqual(called.json.result.structuredContent, (await get(site.url, '/api/posts?per_page=1&bogus=1')).json);
  });

  test('GET and DELETE on /mcp are 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await get(site.url, '/mcp', { method });
      assert.equal(res.status, 405, method);
      assert.match(res.headers.get('allow') ?? '', /POST/);
    }
  });

  test('bad JSON, bad JSON-RPC and an unsupported protocol version are 400', async () => {
    assert.equal((await rpc('{not json')).status, 400);
    assert.equal((await rpc({ hello: 'world' })).status, 400);
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': '1999-01-01' });
    assert.equal(res.status, 400);
    assert.match(res.text, /protocol version/i);
  });

  test('a foreign browser Origin is refused; the site and loopback origins are not', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const evil = await rpc(list, { origin: 'https://evil.example' });
    assert.equal(evil.status, 403);
    assert.equal(evil.json.error.code, -32000);
    assert.equal((await rpc(list, { origin: 'http://localhost:4321' })).status, 200);
    assert.equal((await get(site.url, '/mcp/sse', { headers: { origin: 'https://evil.example' } })).status, 403);
  });

  test('a bearer token is 401 with WWW-Authenticate, like every path', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: 'Bearer abc' });
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /Bearer error="invalid_token", resource_metadata=".*\/\.well-known\/oauth-protected-resource"/);
  });

  test('legacy SSE: an unknown session is 404, a closed stream frees its slot', async (t) => {
    assert.equal((await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, {}, '/mcp/messages?sessionId=nope')).status, 404);
    if (TARGET === 'cloudflare') return t.skip(DISCONNECT_UNSEEN);
    const before = (await get(site.url, '/status')).json.active_streams;
    const client = await connect('legacy SSE');
    assert.equal((await get(site.url, '/status')).json.active_streams, before + 1);
    await client.close();
    for (let i = 0; i < 50 && (await get(site.url, '/status')).json.active_streams !== before; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal((await get(site.url, '/status')).json.active_streams, before);
  });

  test('the sandbox answers over its own corpus on both transports', async () => {
    for (const kind of Object.keys(TRANSPORTS)) {
      const client = await connect(kind, `${site.url}/sandbox`);
      try {
        const result = (await client.callTool({ name: 'list_posts', arguments: {} })) as Result;
        assert.deepEqual(result.structuredContent, (await get(site.url, '/sandbox/api/posts')).json, kind);
      } finally {
        await client.close();
      }
    }
  });

  test("@modelcontextprotocol/conformance: initialize, ping and tools-list scenarios pass", async () => {
    const bin = new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url).pathname;
    for (const scenario of ['server-initialize', 'ping', 'tools-list']) {
      const { stdout } = await run(process.execPath, [bin, 'server', '--url', `${site.url}/mcp`, '--scenario', scenario], { timeout: 60_000 });
      const m = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(stdout);
      assert.ok(m, `${scenario}: ${stdout}`);
      console.log(`conformance ${scenario}: ${m[0]}`);
      assert.equal(m[3], '0', stdout);
      assert.equal(m[1], m[2]);
    }
  });
});
