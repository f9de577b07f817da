import { FLOW_LIMITS, JSON_DEPTH_MAX, MIN_SEND_RATE_DEFAULT, RETRY_MS } from '../core/limits.ts';
import type { Core } from '../core/index.ts';
import { LANGUAGE_CODES } from '../core/languages.ts';
import { PER_PAGE_MAX, QUERY_MAX_CHARS } from '../core/params.ts';
import { absolute } from '../core/urls.ts';
import { CITATION_DESCRIPTION, citationTemplate, TOOLS, TOOL_DESCRIPTORS } from '../mcp/tools.ts';
import { FEEDS } from '../core/formats.ts';

/**
 * The guides for programs: /agents.md (how to use each surface), /auth.md (the access model)
 * and /mcp/docs (tools and transports). Numbers and names come from the code they describe.
 */
export interface GuideLimits {
  batchMax: number;
  rateLimit: number;
  rateWindowSeconds: number;
  bodyLimit: number;
  /** Published signing key (the sandbox's), or undefined when it is a deployment secret. */
  publishedSigningKey: string | undefined;
}

const url = (core: Core, path = '') => absolute(core.catalog, `${core.catalog.base}${path}`);

export function agentsMd(core: Core, limits: GuideLimits): string {
  const { site } = core.catalog;
  const u = (p: string) => url(core, p);
  const first = core.catalog.posts[0]?.slug ?? 'a-post';
  return `# Using ${site.name} from a program

${site.description} Everything here is read-only and public: no key, token or registration.

## Attribution

Every JSON body under \`/api/\` and \`/mcp/v1/\` carries \`attribution\`. Quote it, and link the essay's \`url\`, when you quote or summarise:

> ${site.attribution}

Translations other than English are automated; \`meta.disclaimer\` says so whenever one is returned.

## Pick a surface

| You want | Use |
|---|---|
| A list of posts | \`GET ${u('/api/posts')}?lang=fr&page=1&per_page=10\` |
| One post with its body | \`GET ${u(`/api/posts/${first}`)}?lang=fr&fallback=en\`, or \`${u(`/${first}.md`)}\` for Markdown |
| A citation | \`GET ${u(`/api/posts/${first}/cite`)}?lang=fr\`: a CSL-JSON item (\`data.csl\`, for citeproc, pandoc or Zotero) and APA 7, MLA 9, Chicago 17 and BibTeX text, with the page's canonical URL; a translation names its provider and the English original |
| Search | \`GET ${u('/api/search')}?q=tide&lang=en\` (ranked: posts holding every word first, then those holding most, each result naming the words it lacks in \`missing_words\`; within that the words as typed, then their other forms, then typos, each group by BM25F relevance, title and summary above body; with snippets; finds other forms of a word, \`walked\` for \`walk\`, and typos, \`tidle\` for \`tide\`; \`suggestion\` is the query it likely means, or null); streamed as signed SSE at \`${u('/api/stream/search')}?q=\` |
| A question in plain words | \`POST ${u('/ask')}\` \`{"query": "why does the slow web matter?"}\` (NLWeb-compatible) |
| Many reads at once | \`POST ${u('/api/batch')}\` \`{"requests": [{"path": "/api/posts?lang=de"}, {"path": "/api/site"}]}\` (1 to ${limits.batchMax}) |
| A typed graph | \`POST ${u('/graphql')}\` (schema: \`GET ${u('/graphql')}\`, calendar version 2026-06) |
| Tools for a model | MCP at \`${u('/mcp')}\` (streamable HTTP, stateless) or \`${u('/mcp/sse')}\` (legacy SSE); see ${u('/mcp/docs')} |
| New posts | ${FEEDS.map((f) => `${f.label} at \`${u(`/${f.file}`)}\``).join(', ')}, and \`/{lang}/...\` for each language (the same posts in each; no webhooks) |
| Every detail | ${u('/openapi.json')} (OpenAPI 3.0.3) |

Every surface answers from the same core, so the same request gives the same objects everywhere (GraphQL renames fields to camelCase).

## Languages and translations

\`lang\` is one of ${LANGUAGE_CODES.map((c) => `\`${c}\``).join(', ')} (case-insensitive). A translation can be \`missing\` or \`stale\` (made from an older English text). Without \`fallback=en\`, lists and search hold only posts available in \`lang\`, and a detail answers 404 with \`fallback_url\`. With \`fallback=en\`, untranslated posts come back in English with \`translation.fallback_used: true\`.

How a translation was made is in its \`translation\` object: \`provider\` names the engine and its version (\`apertium:3.8.3\`, \`deepl:v2\`, \`openai:<model>\`: Folio's \`npm run translate\` writes it), \`automated\` is true for a machine translation, \`verified\` true once a person has reviewed it. Category and tag names come in the language asked for; their slugs are the same in every language.

## Limits and errors

- \`per_page\` 1 to ${PER_PAGE_MAX} (default 10); \`page\` from 1; integers are plain digits. Queries up to ${QUERY_MAX_CHARS} characters.
- Rate limit: ${limits.rateLimit > 0 ? `${limits.rateLimit} requests per ${limits.rateWindowSeconds} s per client` : 'not enforced on this deployment'}; read \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`. A batch counts each of its items (\`/api/batch\`, and each message of a JSON-RPC batch on \`/mcp\`). On 429, wait \`Retry-After\` seconds; retry other transient failures with exponential backoff and jitter.
- Request bodies up to ${limits.bodyLimit} bytes, with arrays and objects nested at most ${JSON_DEPTH_MAX} levels deep (deeper, or larger: 413).
- Read answers at a steady pace: a connection whose client takes nothing of an answer for ${FLOW_LIMITS.stalledMs / 1000} s, or takes its answers slower than ${MIN_SEND_RATE_DEFAULT} bytes a second after those ${FLOW_LIMITS.stalledMs / 1000} s, is reset.
- Errors are JSON \`{error}\` with a message that names the parameter; GraphQL errors carry \`extensions.code\`; MCP tool errors are results with \`isError: true\`.
- Send no \`Authorization\` header: any bearer token is refused with 401 (see ${u('/auth.md')}).
- Use \`If-None-Match\` with the \`ETag\` you got: unchanged answers are 304. Answers may be cached a minute (\`Cache-Control: public, max-age=60\`); send \`Accept-Encoding: br\` or \`gzip\` for compressed bodies.
- Every answer that depends only on its URL (lists in every language and page at the default \`per_page\`, details, taxonomies, site, documents) is also a static file, listed as \`x-published\` in ${u('/openapi.json')}: \`/api/posts?lang=fr&page=2\` is ${u('/api/posts/_query/lang=fr&page=2.json')} (query parameters in the order lang, fallback, page, per_page, defaults left out).

## Verifying stream events

Each SSE event's \`data\` is a JSON object ending in \`"signature": "sha256=<hex>"\`: the HMAC-SHA256 of the UTF-8 bytes of \`JSON.stringify\` of the same object without \`signature\` (keys in the order received), keyed with the UTF-8 bytes of the signing secret. To verify: parse, remove \`signature\`, re-serialise, compute, compare in constant time. ${limits.publishedSigningKey ? `This is the sandbox: its key is published, **\`${limits.publishedSigningKey}\`**.` : `The key is this deployment's secret; the sandbox at ${absolute(core.catalog, '/sandbox/agents.md')} publishes its own so you can test verification.`}

## How a stream ends

Search and \`/ask\` streams number their events 1, 2, 3…; the first carries \`retry: ${RETRY_MS}\`, the last is \`done\` (search), \`complete\` (\`/ask\`) or \`error\`, and then the server closes the stream. An \`EventSource\` that reconnects sends \`Last-Event-ID\` and gets only the events after it; after the last one it gets \`204 No Content\`, which stops it reconnecting, so a page that never calls \`close()\` still runs one search per stream. A client that reads nothing for ${FLOW_LIMITS.stalledMs / 1000} s is dropped.

## Paid contact

\`POST ${u('/contact/send')}\` \`{sender, body, reply_to?, callback?}\` delivers a message to the author for a small payment (x402 version 2, an ERC-2612 permit). The first call answers 402 with the price and the \`PAYMENT-REQUIRED\` header; sign the permit it describes and retry with \`PAYMENT-SIGNATURE\`. A retry of the same payment never charges twice.
`;
}

export function authMd(core: Core): string {
  const u = (p: string) => url(core, p);
  return `# Access to ${core.catalog.site.name}

**Everything is public.** Reading posts, searching, GraphQL, MCP tools and feeds need no API key, token, session or account. There is nothing to claim and nothing to revoke.

## Bearer tokens

The OpenAPI document declares one security scheme, \`public\` (HTTP bearer), and it stands for anonymous access. Do not send a token: any \`Authorization: Bearer …\` is answered \`401\` with

\`\`\`
WWW-Authenticate: Bearer error="invalid_token", resource_metadata="${absolute(core.catalog, '/.well-known/oauth-protected-resource')}"
\`\`\`

The remedy is to omit the header. This holds on every path, pages and static files included.

## Registration

There is none to do: registering here grants anonymous access automatically, which every client already has.

## OAuth and OpenID discovery

${u('/.well-known/oauth-protected-resource')} (RFC 9728), ${u('/.well-known/oauth-authorization-server')} (RFC 8414) and ${u('/.well-known/openid-configuration')} exist for standards discovery only. They list the scopes \`content.read\`, \`search.read\` and \`product.read\`, which every anonymous client holds. **This service issues no tokens**: there is no authorization, token or registration endpoint.

## Paid contact

\`POST ${u('/contact/send')}\` is gated by payment, not identity: an x402 version 2 payment (a signed ERC-2612 permit in the \`PAYMENT-SIGNATURE\` header).
`;
}

export function mcpDocs(core: Core, version: string): string {
  const u = (p: string) => url(core, p);
  const descriptors = TOOL_DESCRIPTORS;
  const tools = TOOLS.map((t, i) => {
    const d = descriptors[i]!;
    return `### \`${t.name}\`: ${t.title}

${t.description}

Mirrors \`${t.rest}\`. Example call:

\`\`\`json
${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: t.name, arguments: t.example } }, null, 2)}
\`\`\`

Input schema:

\`\`\`json
${JSON.stringify(d.inputSchema, null, 2)}
\`\`\`

Output: \`structuredContent\` is the REST envelope (output schema \`${String(d.outputSchema.description ?? 'object')}\`, the same JSON Schema as in ${u('/openapi.json')}). \`content\` holds a readable text rendering.
`;
  }).join('\n');
  return `# MCP server: ${core.catalog.site.name}

Server version ${version}. Read-only; no authentication (a bearer token is refused with 401).

## Transports

- **Streamable HTTP**: \`POST ${u('/mcp')}\` with one JSON-RPC message. Stateless: no \`Mcp-Session-Id\`, and \`tools/call\` works without \`initialize\`. Answers are JSON (send \`Accept: application/json, text/event-stream\`; \`application/json\` alone is accepted too). \`GET\` and \`DELETE\` answer 405. An unsupported \`MCP-Protocol-Version\` header is a 400.
- **Legacy HTTP+SSE** (protocol 2024-11-05): \`GET ${u('/mcp/sse')}\` opens a stream; its first event, \`endpoint\`, gives the URL to \`POST\` messages to (\`/mcp/messages?sessionId=…\`, answered 202); replies arrive as \`message\` events. Each client may hold a few sessions at once (8 by default; more is a 429), and a session that receives no message for 5 minutes (by default) is closed: prefer streamable HTTP.
- Browsers: requests with an \`Origin\` must come from this site or a loopback origin (DNS-rebinding protection).

## Tools

Bad arguments (unknown language, \`per_page\` over 100, missing slug or query, an unavailable translation) return a result with \`isError: true\` and the same message the REST API gives. An unknown tool name is a JSON-RPC error.

${tools}
## Resources

Every available post in every language is a resource addressed by its page URL (\`${u('/{slug}')}\`, \`${u('/{lang}/{slug}')}\`; also given as resource templates), read as Markdown. \`resources/list\` pages by 100 with \`nextCursor\`.

### Citing a post

The tools are the three the contract names; a post's citation is the resource template \`${citationTemplate(u(''))}\` (\`application/json\`). ${CITATION_DESCRIPTION} Read it with \`resources/read\`:

\`\`\`json
${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: u(`/api/posts/${core.catalog.posts[0]?.slug ?? 'a-post'}/cite?lang=fr`) } }, null, 2)}
\`\`\`

An unknown post or an unavailable translation (without \`fallback=en\`) is the JSON-RPC error -32002 with the REST message.

## Try it

\`\`\`sh
curl -s ${u('/mcp')} -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \\
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
\`\`\`
`;
}
