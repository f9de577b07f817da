import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchema } from 'graphql';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { get, useServer } from '../helpers/server.ts';
import { corpus } from '../helpers/corpus.ts';
import { gql, selectAll, withoutNulls } from '../helpers/graphql.ts';
import { camelKeys } from '../../src/graphql/camel-case.ts';
import { TRANSLATED_CODES } from '../../src/core/languages.ts';
import { readEvents } from '../helpers/sse.ts';

/**
 * One core, five surfaces: for posts in every language state, REST detail, negotiated JSON, a
 * batch item, GraphQL `post` and MCP `get_post` give the same answer field by field (GraphQL
 * after the camelCase mapping), and the same error when the translation is unavailable; a post's
 * citation likewise (REST /cite, batch, GraphQL `citation`, the MCP citation resource).
 */
const site = useServer();

type Case = { name: string; slug: string; lang: string; fallback: boolean };

async function cases(root: 'content' | 'sandbox'): Promise<Case[]> {
  const { posts, find, stateOf } = await corpus(root);
  const out: Case[] = [{ name: 'English', slug: posts[0]!.slug, lang: 'en', fallback: false }];
  // find('available') would answer English first: a translated case is a language other than English.
  const translated = posts.flatMap((p) => TRANSLATED_CODES.filter((lang) => stateOf(p.slug, lang) === 'available').map((lang) => ({ slug: p.slug, lang })))[0]!;
  out.push({ name: 'translated', ...translated, fallback: false });
  for (const state of ['stale', 'missing']) {
    const c = find(state);
    out.push({ name: state, ...c, fallback: false }, { name: `${state} with fallback=en`, ...c, fallback: true });
  }
  return out;
}

async function mcpClient(base: string) {
  const client = new Client({ name: 'parity', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  return client;
}

for (const [root, base] of [['content', ''], ['sandbox', '/sandbox']] as const) {
  describe(`parity across REST, negotiation, batch, GraphQL and MCP (${root})`, () => {
    test('post detail in every language state', async () => {
      const schema = buildSchema((await get(site.url, `${base}/graphql`)).text);
      const selection = selectAll(schema, 'Post');
      const client = await mcpClient(`${site.url}${base}`);
      try {
        for (const c of await cases(root)) {
          const query = new URLSearchParams(c.lang === 'en' ? {} : { lang: c.lang });
          if (c.fallback) query.set('fallback', 'en');
          const restPath = `/api/posts/${c.slug}${query.size ? `?${query}` : ''}`;
          const rest = await get(site.url, `${base}${restPath}`);
          const label = `${c.name} (${c.slug}, ${c.lang})`;

          const pagePath = `${base}${c.lang === 'en' ? '' : `/${c.lang}`}/${c.slug}${c.fallback ? '?fallback=en' : ''}`;
          const negotiated = await get(site.url, pagePath, { headers: { accept: 'application/json' } });
          assert.equal(negotiated.status, rest.status, `negotiation status, ${label}`);
          assert.deepEqual(negotiated.json, rest.json, `negotiation body, ${label}`);

          const batch = await get(site.url, `${base}/api/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ requests: [{ path: restPath }] }) });
          assert.deepEqual(batch.json.results[0], { path: restPath, status: rest.status, body: rest.json }, `batch, ${label}`);

          const g = await gql(site.url, `query($slug: String!, $lang: String, $fallback: String) { post(slug: $slug, lang: $lang, fallback: $fallback) ${selection} }`, { slug: c.slug, lang: c.lang, fallback: c.fallback ? 'en' : null }, { path: `${base}/graphql` });
          const mcp = (await client.callTool({ name: 'get_post', arguments: { slug: c.slug, lang: c.lang, ...(c.fallback ? { fallback: 'en' } : {}) } })) as { isError?: boolean; structuredContent?: unknown; content: { text: string }[] };

          if (rest.status === 200) {
            assert.deepEqual(withoutNulls(g.body.data.post), withoutNulls(camelKeys(rest.json.data)), `GraphQL post, ${label}`);
            assert.notEqual(mcp.isError, true, label);
            assert.deepEqual(mcp.structuredContent, rest.json, `MCP get_post, ${label}`);
          } else {
            assert.equal(rest.status, 404, label);
            assert.equal(rest.json.status, c.name, `REST names the state, ${label}`);
            assert.equal(g.body.data.post, null);
            const { error, ...details } = rest.json;
            assert.deepEqual(g.body.errors[0].extensions, { code: 'TRANSLATION_UNAVAILABLE', ...camelKeys<object>(details) }, `GraphQL error, ${label}`);
            assert.equal(g.body.errors[0].message, error);
            assert.equal(mcp.isError, true, label);
            assert.equal(mcp.content[0]!.text, error, `MCP error, ${label}`);
          }
        }
      } finally {
        await client.close();
      }
    });

    test('citation in every language state: REST /cite, batch, GraphQL citation and the MCP citation resource give one CSL-JSON', async () => {
      const client = await mcpClient(`${site.url}${base}`);
      try {
        const template = (await client.listResourceTemplates()).resourceTemplates.find((t) => t.name === 'post-citation')!.uriTemplate;
        const origin = template.slice(0, template.indexOf('/api/posts/'));
        for (const c of await cases(root)) {
          const query = new URLSearchParams(c.lang === 'en' ? {} : { lang: c.lang });
          if (c.fallback) query.set('fallback', 'en');
          const restPath = `/api/posts/${c.slug}/cite${query.size ? `?${query}` : ''}`;
          const rest = await get(site.url, `${base}${restPath}`);
          const label = `${c.name} (${c.slug}, ${c.lang})`;
          const batch = await get(site.url, `${base}/api/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ requests: [{ path: restPath }] }) });
          assert.deepEqual(batch.json.results[0], { path: restPath, status: rest.status, body: rest.json }, `batch, ${label}`);
          const g = await gql(site.url, 'query($slug: String!, $lang: String, $fallback: String) { citation(slug: $slug, lang: $lang, fallback: $fallback) { csl apa mla chicago bibtex } }', { slug: c.slug, lang: c.lang, fallback: c.fallback ? 'en' : null }, { path: `${base}/graphql` });
          const mcp = await client.readResource({ uri: `${origin}${restPath}` }).then(
            (read) => ({ json: JSON.parse((read.contents[0] as { text: string }).text) as unknown }),
            (e: Error) => ({ error: e.message }),
          );
          if (rest.status === 200) {
            const { csl, ...forms } = g.body.data.citation;
            assert.deepEqual({ csl: JSON.parse(csl), ...forms }, rest.json.data, `GraphQL citation, ${label}`);
            assert.deepEqual('json' in mcp && mcp.json, rest.json, `MCP citation resource, ${label}`);
          } else {
            assert.equal(rest.status, 404, label);
            const { error, ...details } = rest.json;
            assert.equal(g.body.data.citation, null);
            assert.deepEqual(g.body.errors[0].extensions, { code: 'TRANSLATION_UNAVAILABLE', ...camelKeys<object>(details) }, `GraphQL error, ${label}`);
            assert.ok('error' in mcp && mcp.error.includes(error), `MCP error, ${label}: ${JSON.stringify(mcp)}`);
          }
        }
      } finally {
        await client.close();
      }
    });

    test('lists and search agree too', async () => {
      const schema = buildSchema((await get(site.url, `${base}/graphql`)).text);
      const client = await mcpClient(`${site.url}${base}`);
      try {
        const { find } = await corpus(root);
        const lang = find('stale').lang;
        const listPath = `/api/posts?lang=${lang}&fallback=en&per_page=100`;
        const rest = (await get(site.url, `${base}${listPath}`)).json;
        const batch = (await get(site.url, `${base}/api/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ requests: [{ path: listPath }] }) })).json;
        assert.deepEqual(batch.results[0].body, rest);
        const mcp = (await client.callTool({ name: 'list_posts', arguments: { lang, fallback: 'en', per_page: 100 } })) as { structuredContent?: unknown };
        assert.deepEqual(mcp.structuredContent, rest);
        const g = await gql(site.url, `{ posts(first: 100, lang: "${lang}", fallback: "en") { totalCount meta ${selectAll(schema, 'ResponseMeta')} edges { node ${selectAll(schema, 'PostSummary')} } } }`, undefined, { path: `${base}/graphql` });
        assert.equal(g.body.data.posts.totalCount, rest.pagination.total);
        assert.deepEqual(withoutNulls(g.body.data.posts.edges.map((e: { node: unknown }) => e.node)), withoutNulls(camelKeys(rest.data)));
        assert.deepEqual(withoutNulls(g.body.data.posts.meta), withoutNulls(camelKeys(rest.meta)));

        const word = rest.data[0].title.split(/\s+/).find((w: string) => w.length > 3).replace(/[^\p{L}]/gu, '');
        const search = (await get(site.url, `${base}/api/search?q=${encodeURIComponent(word)}&lang=${lang}&fallback=en`)).json;
        const mcpSearch = (await client.callTool({ name: 'search_posts', arguments: { query: word, lang, fallback: 'en' } })) as { structuredContent?: unknown };
        assert.deepEqual(mcpSearch.structuredContent, search);
        const gs = await gql(site.url, `query($q: String!) { search(query: $q, lang: "${lang}", fallback: "en") { totalCount edges { node { slug snippet } } } }`, { q: word }, { path: `${base}/graphql` });
        assert.equal(gs.body.data.search.totalCount, search.total);
        assert.deepEqual(gs.body.data.search.edges.map((e: { node: unknown }) => e.node), search.data.map((d: { slug: string; snippet: string }) => ({ slug: d.slug, snippet: d.snippet })));
      } finally {
        await client.close();
      }
    });
  });
}

describe('word forms, typos and suggestions agree across surfaces', () => {
  test('REST, MCP, GraphQL and the stream give one order, one suggestion and the same missing words (walked, mapping, tidle, a miss, a word no essay holds)', async () => {
    const client = await mcpClient(site.url);
    try {
      for (const q of ['walked', 'mapping', 'tidle', 'walk tidle', 'mpa', 'sourdough recipe tips', 'slow archive zzqqxx']) {
        const rest = (await get(site.url, `/api/search?q=${encodeURIComponent(q)}&per_page=100`)).json;
        const mcp = (await client.callTool({ name: 'search_posts', arguments: { query: q, per_page: 100 } })) as { structuredContent?: unknown };
        assert.deepEqual(mcp.structuredContent, rest, `MCP: ${q}`);
        const g = await gql(site.url, 'query($q: String!) { search(query: $q, first: 100) { totalCount suggestion edges { node { slug snippet missingWords } } } }', { q });
        assert.equal(g.body.data.search.suggestion, rest.suggestion, `GraphQL suggestion: ${q}`);
        assert.equal(g.body.data.search.totalCount, rest.total);
        type Hit = { slug: string; snippet: string; missing_words: string[] };
        assert.deepEqual(g.body.data.search.edges.map((e: { node: unknown }) => e.node), rest.data.map((d: Hit) => ({ slug: d.slug, snippet: d.snippet, missingWords: d.missing_words })));
        if (q.includes('zzqqxx')) assert.ok(rest.data.every((d: Hit) => d.missing_words.includes('zzqqxx')), 'the word no essay holds is named');
        const events = await readEvents(await fetch(`${site.url}/api/stream/search?q=${encodeURIComponent(q)}&per_page=100`));
        const results = events.filter((e) => e.event === 'result').map((e) => JSON.parse(e.data));
        assert.deepEqual(results.map((r) => r.slug), rest.data.map((d: { slug: string }) => d.slug), `stream order: ${q}`);
        assert.deepEqual(results.map((r) => r.missing_words), rest.data.map((d: { missing_words: string[] }) => d.missing_words), `stream missing words: ${q}`);
        const done = JSON.parse(events.find((e) => e.event === 'done')!.data);
        assert.equal(done.suggestion, rest.suggestion, `stream suggestion: ${q}`);
      }
    } finally {
      await client.close();
    }
  });
});
