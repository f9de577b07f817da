import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { compileErrors, validate } from '@readme/openapi-parser';
import { get, useServer } from '../helpers/server.ts';
import { checkContract, matchTemplate } from '../helpers/contract.ts';
import { ROUTES } from '../../functions/routes.ts';
import { openApiPath } from '../../src/openapi/document.ts';
import { corpus } from '../helpers/corpus.ts';

const site = useServer();
const SITE_URL = 'http://localhost:4321';
/** Documents name SITE_URL; the test server listens elsewhere. */
const local = (href: string) => href.replace(SITE_URL, site.url);

// SERVICE.md's endpoint table and supporting resources, as written there.
const SERVICE_PATHS = [
  '/api', '/api/languages', '/api/site', '/api/posts', '/api/posts/{slug}', '/api/search', '/api/categories', '/api/categories/{slug}',
  '/api/tags', '/api/tags/{slug}', '/mcp/v1/posts', '/mcp/v1/search', '/api/products/the-value-layer', '/api/stream/search', '/ask', '/status',
  '/api/batch', '/mcp', '/mcp/sse', '/feed.xml', '/{lang}/feed.xml', '/openapi.json', '/llms.txt', '/agents.md', '/mcp/docs',
  '/.well-known/mcp/server-card.json', '/.well-known/agent.json', '/.well-known/agent-skills/index.json', '/.well-known/api-catalog',
  '/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/auth.md',
];

for (const base of ['', '/sandbox']) {
  describe(`OpenAPI at ${base}/openapi.json`, () => {
    test('is OpenAPI 3.0.3, version 2.0.0, and validates clean with @readme/openapi-parser', async () => {
      const res = await get(site.url, `${base}/openapi.json`);
      assert.equal(res.status, 200);
      assert.equal(res.json.openapi, '3.0.3');
      assert.equal(res.json.info.version, '2.0.0');
      assert.equal(res.json.servers[0].url, `${SITE_URL}${base}`);
      assert.deepEqual(res.json.components.securitySchemes.public, { ...res.json.components.securitySchemes.public, type: 'http', scheme: 'bearer' });
      const result = await validate(structuredClone(res.json));
      assert.ok(result.valid, compileErrors(result));
      assert.deepEqual(result.warnings, []);
    });

    test('lists every path of SERVICE.md and every route the server has', async () => {
      const doc = (await get(site.url, `${base}/openapi.json`)).json;
      const documented = Object.keys(doc.paths);
      for (const path of SERVICE_PATHS) assert.ok(documented.includes(path), `SERVICE.md path ${path}`);
      for (const route of ROUTES.filter((r) => !r.hidden)) {
        const op = doc.paths[openApiPath(route.path)]?.[(route.method ?? 'GET').toLowerCase()];
        assert.ok(op, `route ${route.method ?? 'GET'} ${route.path}`);
      }
      const list = doc.paths['/api/posts'].get;
      const params = list.parameters.map((p: { $ref: string }) => doc.components.parameters[p.$ref.split('/').pop()!]);
      assert.deepEqual(params.find((p: { name: string }) => p.name === 'per_page').schema, { type: 'integer', minimum: 1, maximum: 100, default: 10 });
      assert.ok(params.find((p: { name: string }) => p.name === 'lang').schema.enum.includes('pt-br'));
      assert.ok(list.responses['200'].headers['X-RateLimit-Limit']);
      assert.ok(list.responses['200'].content['application/json'].example.data.length > 0, 'examples from the corpus');
    });

    test('every documented path answers', async () => {
      const doc = (await get(site.url, `${base}/openapi.json`)).json;
      const { posts, find } = await corpus(base ? 'sandbox' : 'content');
      const translated = find('available');
      const skill = (await get(site.url, `${base}/.well-known/agent-skills/index.json`)).json.skills[0].name;
      const values: Record<string, string> = { slug: posts[0]!.slug, lang: 'fr', skill };
      const term = async (kind: string) => ({ ...values, slug: (await get(site.url, `${base}/api/${kind}`)).json.data[0].slug as string });
      const required = (op: { parameters?: { $ref: string }[] }) =>
        (op.parameters ?? []).map((p) => doc.components.parameters[p.$ref.split('/').pop()!]).filter((p: { in: string; required?: boolean }) => p.in === 'query' && p.required);
      for (const [template, item] of Object.entries(doc.paths as Record<string, Record<string, { parameters?: { $ref: string }[]; requestBody?: { content: Record<string, { example?: unknown }> } }>>)) {
        const kind = /^\/api\/(categories|tags)\/\{slug\}$/.exec(template)?.[1];
        const own: Record<string, string> = kind ? await term(kind) : template.includes('{lang}/{slug}') ? { ...values, ...translated } : values;
        // A standalone page: the document's example names one; a root without pages has no example, and a 404.
        const page = template === '/api/pages/{slug}' ? (item.get as { responses: Record<string, { content: Record<string, { example?: { data: { slug: string } } }> }> }).responses['200']!.content['application/json']!.example?.data.slug : undefined;
        if (template === '/api/pages/{slug}' && !page) {
          assert.equal((await get(site.url, `${base}/api/pages/no-such-page`)).status, 404);
          continue;
        }
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => (page && name === 'slug' ? page : own[name]!));
        for (const [method, op] of Object.entries(item)) {
          if (template === '/mcp/messages' || template === '/mcp/sse' || template === '/api/stream/search') continue; // streams and sessions: tests of their own
          const body = op.requestBody?.content['application/json']?.example;
          const query = new URLSearchParams(required(op).map((p: { name: string }) => [p.name, 'web']));
          if (template.includes('search')) query.set('q', 'web');
          const res = await get(site.url, `${base}${path}${query.size ? `?${query}` : ''}`, {
            method: method.toUpperCase(),
            ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } } : {}),
          });
          assert.ok(res.status < 400 || (template === '/contact/send' && [402, 422, 503].includes(res.status)), `${method} ${base}${path}: ${res.status}`);
        }
      }
    });
  });
}

describe('contract checking itself', () => {
  test('an undocumented field, status or path is caught', async () => {
    const good = (await get(site.url, '/api/site')).json;
    await assert.rejects(checkContract(site.url, '/api/site', 'GET', 200, 'application/json', { ...good, surprise: 1 }), /surprise|additional/);
    await assert.rejects(checkContract(site.url, '/api/site', 'GET', 418, 'application/json', { error: 'x' }), /does not list/);
    await assert.rejects(checkContract(site.url, '/a/b/c/d/e', 'GET', 200, 'application/json', {}), /not in \/openapi.json/);
    assert.equal(matchTemplate(['/{slug}', '/api/posts', '/{slug}.md', '/{lang}/{slug}', '/{lang}/feed.xml'], '/fr/feed.xml'), '/{lang}/feed.xml');
    assert.equal(matchTemplate(['/{slug}', '/{slug}.md'], '/a-post.md'), '/{slug}.md');
  });
});

describe('robots.txt and the favicon', () => {
  test('/robots.txt allows every crawler and names the sitemap, which resolves', async () => {
    const res = await get(site.url, '/robots.txt');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/plain/);
    assert.match(res.text, /^User-agent: \*\nAllow: \/\n/);
    const sitemap = /^Sitemap: (\S+)$/m.exec(res.text)![1]!;
    assert.equal(sitemap, `${SITE_URL}/sitemap.xml`);
    assert.equal((await get(site.url, new URL(sitemap).pathname)).status, 200);
  });

  test('/favicon.ico is an icon (browsers ask for it whatever the page links)', async () => {
    const res = await fetch(`${site.url}/favicon.ico`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/x-icon');
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0], 'an ICO header');
  });
});

describe('llms.txt', () => {
  const sections = (text: string) => [...text.matchAll(/^(#{1,2}) (.+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
  const links = (text: string) => [...text.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => m[1]!);

  test('/llms.txt: H1, summary, sections of links that all resolve', async () => {
    const res = await get(site.url, '/llms.txt');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/plain/);
    const heads = sections(res.text);
    assert.match(heads[0]!, /^# /, 'starts with the H1');
    assert.equal(heads.filter((h) => h.startsWith('# ')).length, 1);
    assert.match(res.text.split('\n')[2]!, /^> \S/, 'a blockquote summary');
    assert.deepEqual(heads.slice(1), ['## Posts', '## API', '## Optional']);
    const { availableIn } = await corpus('content');
    const all = links(res.text);
    for (const post of availableIn('en')) assert.ok(all.includes(`${SITE_URL}/${post.slug}.md`), post.slug);
    for (const href of new Set(all)) assert.equal((await get(site.url, local(href).replace(site.url, ''))).status, 200, href);
  });

  test('per language, only posts available in it; llms-full.txt holds every English post', async () => {
    const { availableIn, posts } = await corpus('content');
    const fr = await get(site.url, '/fr/llms.txt');
    assert.equal(fr.status, 200);
    const postLinks = links(fr.text).filter((l) => /\/fr\/[a-z0-9-]+\.md$/.test(l));
    assert.equal(postLinks.length, availableIn('fr').length);
    for (const href of postLinks) assert.equal((await get(site.url, local(href).replace(site.url, ''))).status, 200, href);
    const full = await get(site.url, '/llms-full.txt');
    for (const p of posts) assert.ok(full.text.includes(`slug: "${p.slug}"`), p.slug);
    assert.equal((await get(site.url, '/xx/llms.txt')).status, 404);
  });
});

describe('guides', () => {
  test('/agents.md, /auth.md and /mcp/docs are Markdown naming what exists', async () => {
    const agents = await get(site.url, '/agents.md');
    assert.match(agents.headers.get('content-type')!, /^text\/markdown/);
    for (const word of ['/api/batch', '/graphql', '/mcp', 'signature', 'attribution', 'Retry-After', 'fallback=en']) assert.ok(agents.text.includes(word), word);
    assert.ok(!agents.text.includes('folio-sandbox-signing-key'), 'the site guide does not print a key');
    assert.ok((await get(site.url, '/sandbox/agents.md')).text.includes('folio-sandbox-signing-key'), 'the sandbox publishes its key');
    const auth = await get(site.url, '/auth.md');
    for (const word of ['401', 'content.read', 'search.read', 'product.read', 'issues no tokens', 'anonymous']) assert.ok(auth.text.includes(word), word);
    const mcp = await get(site.url, '/mcp/docs');
    const tools = (await get(site.url, '/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })).json.result.tools;
    for (const tool of tools) assert.ok(mcp.text.includes(`### \`${tool.name}\``), tool.name);
    for (const word of ['/mcp/sse', 'endpoint', 'isError', 'Input schema']) assert.ok(mcp.text.includes(word), word);
  });
});

describe('.well-known', () => {
  test('MCP server card: one document at every location, with the tools the server lists', async () => {
    const cards = await Promise.all(['/.well-known/mcp/server-card.json', '/.well-known/mcp.json', '/mcp/server-card'].map((p) => get(site.url, p)));
    for (const c of cards) assert.deepEqual(c.json, cards[0]!.json);
    const card = cards[0]!.json;
    assert.equal(card.version, '2.0.0');
    assert.equal(card.remotes[0].type, 'streamable-http');
    assert.equal(card.transport.endpoint, '/mcp');
    assert.deepEqual(card.tools.map((t: { name: string }) => t.name).sort(), ['get_post', 'list_posts', 'search_posts']);
  });

  test('agent cards', async () => {
    const a = await get(site.url, '/.well-known/agent-card.json');
    const b = await get(site.url, '/.well-known/agent.json');
    assert.deepEqual(a.json, b.json);
    assert.equal(a.json.name, 'The Long Field');
    assert.ok(a.json.skills.some((s: { id: string }) => s.id === 'search_posts'));
  });

  test('api-catalog: RFC 9727 linkset, with a Link header on HEAD', async () => {
    const res = await get(site.url, '/.well-known/api-catalog');
    assert.match(res.headers.get('content-type')!, /^application\/linkset\+json/);
    assert.equal(res.json.linkset[0]['service-desc'][0].href, `${SITE_URL}/openapi.json`);
    const head = await fetch(`${site.url}/.well-known/api-catalog`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.match(head.headers.get('link') ?? '', /rel="api-catalog"/);
    for (const entry of res.json.linkset) for (const rel of Object.values(entry).filter(Array.isArray) as { href: string }[][]) for (const l of rel) assert.equal((await get(site.url, local(l.href).replace(site.url, ''))).status, 200, l.href);
  });

  test('OAuth and OpenID documents: discovery only, the three scopes, no token endpoint', async () => {
    const pr = (await get(site.url, '/.well-known/oauth-protected-resource')).json;
    assert.equal(pr.resource, `${SITE_URL}/`);
    const as = (await get(site.url, '/.well-known/oauth-authorization-server')).json;
    const oidc = (await get(site.url, '/.well-known/openid-configuration')).json;
    for (const doc of [pr, as, oidc]) assert.deepEqual(doc.scopes_supported, ['content.read', 'search.read', 'product.read']);
    for (const doc of [as, oidc]) {
      assert.equal(doc.token_endpoint, undefined);
      assert.deepEqual(doc.grant_types_supported, []);
      assert.match(doc.description, /issues no tokens/);
    }
    assert.equal(as.issuer, pr.authorization_servers[0]);
  });

  test("agent skills: each skill's file is served and its sha256 matches the bytes", async () => {
    for (const base of ['', '/sandbox']) {
      const index = (await get(site.url, `${base}/.well-known/agent-skills/index.json`)).json;
      assert.ok(index.skills.length >= 2);
      for (const skill of index.skills) {
        const res = await fetch(local(skill.url));
        assert.equal(res.status, 200, skill.url);
        const bytes = Buffer.from(await res.arrayBuffer());
        const digest = createHash('sha256').update(bytes).digest('hex');
        assert.equal(skill.sha256, digest, skill.name);
        assert.equal(skill.digest, `sha256:${digest}`);
        assert.match(bytes.toString(), new RegExp(`^---\\nname: ${skill.name}\\n`));
      }
    }
  });
});

describe('the /api HTML page', () => {
  test('lists every documented operation with live example links, and the site links to it', async () => {
    for (const base of ['', '/sandbox']) {
      const page = await get(site.url, `${base}/api`, { headers: { accept: 'text/html' } });
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type')!, /text\/html/);
      const doc = (await get(site.url, `${base}/openapi.json`)).json;
      const html = page.text.replaceAll('&#123;', '{').replaceAll('&#125;', '}');
      // A path is shown in pieces (a <wbr> after each '/', so that it wraps only there).
      const shown = [...html.matchAll(/<code class="path">(.*?)<\/code>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
      for (const path of Object.keys(doc.paths)) assert.ok(shown.includes(`${base}${path}`), `${base}${path} on the page`);
      const hrefs = [...html.matchAll(/<dt><span class="method">GET<\/span> <a href="([^"]+)"><code class="path">/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
      assert.ok(hrefs.length > 20);
      for (const href of hrefs) assert.equal((await get(site.url, href)).status, 200, href);
      const home = await get(site.url, `${base}/`);
      assert.ok(home.text.includes(`href="${base}/api"`), 'linked from the site');
    }
  });
});
