import { BATCH_MAX, FLOW_LIMITS, LLMS_FULL_MAX_BYTES_DEFAULT, MCP_BATCH_MAX, RETRY_MS, SITEMAP_MAX_URLS_DEFAULT } from '../core/limits.ts';
import type { Schema } from '../schemas/resources.ts';
import { CONTENT, LIST, SEARCH } from './parameters.ts';
import { FEEDS, type Feed } from '../core/formats.ts';

/**
 * What OpenAPI says of each route, keyed `METHOD path` in OpenAPI's form (`{slug}`). The
 * document is assembled from the route table and this list; a test fails when a route has no
 * entry here or an entry has no route, so neither can drift from the other.
 */
export interface Reply {
  description: string;
  /** A component schema name, or an inline schema. */
  schema?: string | Schema;
  /** Media type when not JSON. */
  type?: string;
  /** Extra media types for the same status (content negotiation). */
  also?: Record<string, string | Schema>;
  headers?: string[];
}

export interface Operation {
  tag: string;
  summary?: string;
  description?: string;
  parameters?: string[];
  body?: { schema: string | Schema; description: string; example?: unknown; required?: boolean; type?: string };
  replies: Record<number, Reply>;
  /** Answers JSON with the rate-limit headers (every JSON response carries them). */
  json?: boolean;
  /** Served from the static files, not the route table. */
  static?: boolean;
}

const ok = (schema: string | Schema, description = 'OK'): Reply => ({ description, schema });
const text = (description: string): Reply => ({ description, type: 'text/plain', schema: { type: 'string' } });
const markdown = (description: string): Reply => ({ description, type: 'text/markdown', schema: { type: 'string' } });
const badRequest: Reply = { description: 'Invalid parameter (message names it); an unsupported lang adds supported_languages', schema: { oneOf: [{ $ref: '#/components/schemas/Error' }, { $ref: '#/components/schemas/LanguageError' }] } };
const notFound: Reply = { description: 'Not found', schema: 'Error' };
/** Paths outside the API answer their 404 as the site's not-found page. */
const notFoundPage: Reply = { description: 'Not found: the site\'s not-found page', type: 'text/html', schema: { type: 'string' } };
const notAcceptable: Reply = { description: 'The client accepts neither JSON media type (the body is JSON all the same)', schema: 'GraphQLResponse' };
const withLang = { 400: badRequest };
const postUnavailable: Reply = { description: 'Unknown post, or its translation is unavailable (missing or stale) and fallback was not given', schema: { oneOf: [{ $ref: '#/components/schemas/Error' }, { $ref: '#/components/schemas/TranslationUnavailable' }] } };

const STREAM_DOC = `Server-Sent Events. Each event has an id (1, 2, 3...) and JSON data ending in signature "sha256=<hex>": the HMAC-SHA256, keyed with the UTF-8 bytes of the signing secret, of JSON.stringify of the object without signature. How a stream ends: the first event carries retry: ${RETRY_MS}; the last is done (search), complete (/ask) or error, and the server then closes the stream. A reconnect with Last-Event-ID gets only the events after that id; one after the last event gets 204 No Content, which stops an EventSource from reconnecting (the search is not sent again). A client that reads nothing for ${FLOW_LIMITS.stalledMs / 1000} s is dropped.`;

/** A JSON Feed's outline (the full rules: jsonfeed.org/version/1.1). */
const JSON_FEED: Schema = {
  type: 'object',
  required: ['version', 'title', 'items'],
  properties: {
    version: { type: 'string', enum: ['https://jsonfeed.org/version/1.1'] },
    title: { type: 'string' },
    home_page_url: { type: 'string', format: 'uri' },
    feed_url: { type: 'string', format: 'uri' },
    language: { type: 'string' },
    items: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, url: { type: 'string', format: 'uri' }, content_html: { type: 'string' } } } },
  },
};

/** Every feed of FEEDS, for English at the root and for each language: the same posts in each. */
function feedOperations(): Record<string, Operation> {
  const reply = (f: Feed): Reply => ({ description: f.label, type: f.mediaType, schema: f.name === 'json' ? JSON_FEED : { type: 'string' } });
  return Object.fromEntries(
    FEEDS.flatMap((f) => [
      [`GET /${f.file}`, { tag: 'Feeds', summary: `${f.label} feed of the English posts`, static: true, replies: { 200: reply(f) } }],
      [`GET /{lang}/${f.file}`, { tag: 'Feeds', summary: `${f.label} feed of the posts available in a language (the same posts in every format)`, parameters: ['langPath'], static: true, replies: { 200: reply(f), 404: notFoundPage } }],
    ]),
  );
}

/** A negotiated post URL's JSON: a post's Single, or a standalone page's PageSingle. */
const POST_OR_PAGE = { oneOf: [{ $ref: '#/components/schemas/Single' }, { $ref: '#/components/schemas/PageSingle' }] };

export const OPERATIONS: Record<string, Operation> = {
  'GET /api': { tag: 'Meta', description: 'JSON endpoint index; the HTML reference page when the client prefers text/html.', replies: { 200: { ...ok('ApiIndex'), also: { 'text/html': { type: 'string' } } } }, json: true },
  'GET /api/languages': { tag: 'Meta', replies: { 200: ok('Languages') }, json: true },
  'GET /api/site': { tag: 'Meta', parameters: ['lang'], replies: { 200: ok('Site'), ...withLang }, json: true },
  'GET /api/posts': { tag: 'Posts', parameters: LIST, replies: { 200: ok('Collection'), ...withLang }, json: true },
  'GET /api/posts/{slug}': {
    tag: 'Posts',
    parameters: ['slug', ...CONTENT],
    replies: { 200: ok('Single'), ...withLang, 404: postUnavailable },
    json: true,
  },
  'GET /api/posts/{slug}/cite': {
    tag: 'Posts',
    summary: 'How to cite a post',
    description: 'The post in lang as a CSL-JSON item (data.csl, type post-weblog: the citeproc input schema) and as APA 7, MLA 9, Chicago 17 (notes-bibliography, bibliography entry) and BibTeX text, made from that item, with the canonical URL of the page in that language. A translation names the engine and version of its provider as translator ("DeepL v2" for provider deepl:v2; none for llm:unrecorded, a model nobody recorded) and carries the English title (original-title), a note "Machine translation (<engine and version>) of <English URL>" and custom.original-language "en". The same answer as GraphQL citation(slug, lang, fallback) (csl as JSON text) and the MCP resource {origin}/api/posts/{slug}/cite{?lang,fallback} (resources/read); the post page shows the same forms under "Cite this essay". Errors as GET /api/posts/{slug} (fallback_url names this endpoint).',
    parameters: ['slug', ...CONTENT],
    replies: { 200: ok('Citation'), ...withLang, 404: postUnavailable },
    json: true,
  },
  'GET /api/pages/{slug}': {
    tag: 'Posts',
    description: 'A standalone page (content/pages/: About, Colophon) with its body, by the same translation rule as a post. Pages are never in post lists, feeds, search, GraphQL or MCP; their own schema is PageSingle (a post detail without date, author, featured image and terms).',
    parameters: ['slug', ...CONTENT],
    replies: { 200: ok('PageSingle'), ...withLang, 404: { description: 'Unknown page, or its translation is unavailable (missing or stale) and fallback was not given', schema: { oneOf: [{ $ref: '#/components/schemas/Error' }, { $ref: '#/components/schemas/TranslationUnavailable' }] } } },
    json: true,
  },
  'GET /api/search': {
    tag: 'Search',
    description: 'Relevance-ranked search with snippets. Order: posts holding every query word as typed first, then those needing a longer word it begins, then another form of a word (its stem), then a typo correction (the likeliest meant word first); within each, by BM25F score (a word\'s count in the title, summary and terms weighs 4 times a body mention, counts saturate, each field is normalised by its length, rarer words weigh more; the sum over the query words), then catalog order. REST, the streams, GraphQL, MCP and /ask share this order. With Accept: text/event-stream it streams like /api/stream/search.',
    parameters: SEARCH,
    replies: { 200: { ...ok('SearchBody'), also: { 'text/event-stream': { type: 'string', description: STREAM_DOC } } }, ...withLang },
    json: true,
  },
  'GET /api/categories': { tag: 'Taxonomies', parameters: ['lang'], replies: { 200: ok('TaxonomyList'), ...withLang }, json: true },
  'GET /api/categories/{slug}': { tag: 'Taxonomies', parameters: ['slug', ...LIST], replies: { 200: ok('Collection'), ...withLang, 404: notFound }, json: true },
  'GET /api/tags': { tag: 'Taxonomies', parameters: ['lang'], replies: { 200: ok('TaxonomyList'), ...withLang }, json: true },
  'GET /api/tags/{slug}': { tag: 'Taxonomies', parameters: ['slug', ...LIST], replies: { 200: ok('Collection'), ...withLang, 404: notFound }, json: true },
  'GET /api/products/the-value-layer': { tag: 'Meta', replies: { 200: ok('Product') }, json: true },
  'GET /mcp/v1/posts': { tag: 'Legacy', parameters: LIST, replies: { 200: ok('Collection'), ...withLang }, json: true },
  'GET /mcp/v1/search': { tag: 'Legacy', parameters: SEARCH, replies: { 200: ok('SearchBody'), ...withLang }, json: true },
  'GET /status': { tag: 'Meta', replies: { 200: ok('Status') }, json: true },
  'GET /api/stream/search': {
    tag: 'Search',
    description: `Events: status (phase), result (a post summary with snippet and rank, the page REST returns), done (total, returned, took_ms), error (message). ${STREAM_DOC}`,
    parameters: SEARCH,
    replies: { 200: { description: 'The event stream', type: 'text/event-stream', schema: { type: 'string' } }, ...withLang },
  },
  'POST /ask': {
    tag: 'Ask',
    description: 'NLWeb-compatible natural-language query over the search index (no remote model). Also accepts NLWeb\'s nested form {query: {text, site}, prefer: {streaming}}. With streaming: events start, result (one per answer), complete (total), signed like search events.',
    body: { schema: 'AskRequest', description: 'The question', example: { query: 'why does the slow web matter?' }, required: true },
    replies: { 200: { ...ok('AskAnswer'), also: { 'text/event-stream': { type: 'string', description: STREAM_DOC } } }, 400: { description: 'Missing query, unknown site or malformed body', schema: 'AskError' } },
    json: true,
  },
  'GET /ask': {
    tag: 'Ask',
    parameters: ['askQuery', 'askSite', 'askStreaming'],
    replies: { 200: { ...ok('AskAnswer'), also: { 'text/event-stream': { type: 'string', description: STREAM_DOC } } }, 400: { description: 'Missing query or unknown site', schema: 'AskError' } },
    json: true,
  },
  'POST /api/batch': {
    tag: 'Batch',
    description: `1 to ${BATCH_MAX} GETs of /api/ paths, run concurrently in-process; results in request order, each {path, status, body} equal to the standalone GET. Items not under /api/, naming /api/batch or a stream: item status 400; a method other than GET: 405; past the rate limit: 429. The batch and each item count toward the rate limit.`,
    body: { schema: 'BatchRequest', description: 'The sub-requests', example: { requests: [{ path: '/api/posts?lang=fr&per_page=2' }, { path: '/api/site' }] }, required: true },
    replies: { 200: ok('BatchResult'), 400: { description: 'Not JSON, not {requests: [...]}, 0 or more than 20 items, or an item without a string path', schema: 'Error' } },
    json: true,
  },
  'POST /mcp': {
    tag: 'MCP',
    description: 'Model Context Protocol, streamable HTTP transport, stateless (no session; tools/call works without initialize). Tools list_posts, get_post, search_posts; posts as resources. See /mcp/docs. GET and DELETE are 405.',
    body: { schema: 'JsonRpcRequest', description: `One JSON-RPC 2.0 message (or a batch of 1 to ${MCP_BATCH_MAX})`, example: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_posts', arguments: { query: 'tide' } } }, required: true },
    replies: {
      200: ok({ anyOf: [{ $ref: '#/components/schemas/JsonRpcResponse' }, { type: 'array', items: { $ref: '#/components/schemas/JsonRpcResponse' } }] }, 'The JSON-RPC response (an array of them for a batch, each message of which counts toward the rate limit)'),
      202: { description: 'Accepted (notifications only)' },
      400: { description: `Invalid JSON, not JSON-RPC, an empty batch or one of more than ${MCP_BATCH_MAX} messages (-32600; only the POST counts toward the rate limit), or an unsupported MCP-Protocol-Version`, schema: 'JsonRpcResponse' },
      403: { description: 'A browser Origin that is not allowed', schema: 'JsonRpcResponse' },
    },
  },
  'GET /mcp/sse': {
    tag: 'MCP',
    description: 'MCP legacy HTTP+SSE transport (2024-11-05): the first event, endpoint, names the URL to POST messages to; answers arrive as message events.',
    replies: { 200: { description: 'The event stream', type: 'text/event-stream', schema: { type: 'string' } }, 403: { description: 'A browser Origin that is not allowed', schema: 'JsonRpcResponse' }, 503: { description: 'Too many open sessions', schema: 'Error' } },
  },
  'POST /mcp/messages': {
    tag: 'MCP',
    parameters: ['sessionId'],
    body: { schema: 'JsonRpcRequest', description: 'One JSON-RPC 2.0 message for the session', required: true },
    replies: { 202: { description: 'Accepted; the answer comes on the session stream', type: 'text/plain', schema: { type: 'string' } }, 400: { description: 'Not a JSON-RPC message', schema: 'JsonRpcResponse' }, 404: { description: 'Unknown or closed session, or one whose holding process has stopped', schema: 'Error' }, 503: { description: 'The store that shares sessions across processes (REDIS_URL) is unreachable; retry, or use POST /mcp', schema: 'Error', headers: ['Retry-After'] } },
  },
  'GET /{slug}': {
    tag: 'Pages',
    summary: 'A post or page, negotiated',
    description: 'HTML by default (also for */*); Accept: application/json gives the /api/posts/{slug} envelope (for a standalone page, the /api/pages/{slug} one: PageSingle); Accept: text/markdown the Markdown document (byte-identical to /{slug}.md). Vary: Accept. On Cloudflare Workers the page URLs are static files by default (HTML whatever the Accept; built with FOLIO_WORKERS_NEGOTIATE=1 they negotiate): /{slug}.md and /api/posts/{slug} answer the same on every host.',
    parameters: ['slug'],
    replies: {
      200: { description: 'The post or page', type: 'text/html', schema: { type: 'string' }, also: { 'application/json': POST_OR_PAGE, 'text/markdown': { type: 'string' } } },
      404: { description: 'Unknown post', type: 'text/html', schema: { type: 'string' }, also: { 'application/json': 'Error' } },
    },
  },
  'GET /{lang}/{slug}': {
    tag: 'Pages',
    summary: 'A translated post or page, negotiated',
    description: 'As /{slug} in another language. An unavailable translation is a 404: an HTML page linking to the English post, the translation-unavailable JSON body, or a short Markdown text.',
    parameters: ['langPath', 'slug'],
    replies: {
      200: { description: 'The post or page', type: 'text/html', schema: { type: 'string' }, also: { 'application/json': POST_OR_PAGE, 'text/markdown': { type: 'string' } } },
      404: { description: 'Unknown post or unavailable translation', type: 'text/html', schema: { type: 'string' }, also: { 'application/json': 'TranslationUnavailable', 'text/markdown': { type: 'string' } } },
    },
  },
  'GET /search': {
    tag: 'Pages',
    description: 'The search page. Without q: the form. With q: the results of /api/search (fallback=en, 10 a page) rendered on the server, matched words in <mark>, with a pager; no JavaScript needed. A query the search refuses is the page with the message, 400.',
    parameters: ['pageQ', 'page'],
    replies: { 200: { description: 'The search page', type: 'text/html', schema: { type: 'string' } }, 400: { description: 'The page with the refusal (q over 256 characters, a bad page); a query string that is not valid percent-encoding is refused before any page, as JSON {error}', type: 'text/html', schema: { type: 'string' }, also: { 'application/json': 'Error' } } },
  },
  'GET /{lang}/search': {
    tag: 'Pages',
    description: 'As /search, in a language that has posts: its posts, and the English originals of the others. A language that is not one of the 14, or has no posts, is the HTML not-found page (404).',
    parameters: ['langPath', 'pageQ', 'page'],
    replies: { 200: { description: 'The search page', type: 'text/html', schema: { type: 'string' } }, 404: notFoundPage, 400: { description: 'The page with the refusal; a query string that is not valid percent-encoding is refused before any page, as JSON {error}', type: 'text/html', schema: { type: 'string' }, also: { 'application/json': 'Error' } } },
  },
  'GET /{slug}.md': { tag: 'Pages', summary: 'The Markdown twin of a post', parameters: ['slug'], static: true, replies: { 200: { description: 'Markdown with YAML front matter', type: 'text/markdown', schema: { type: 'string' } }, 404: notFoundPage } },
  'GET /{lang}/{slug}.md': { tag: 'Pages', summary: 'The Markdown twin of a translated post', parameters: ['langPath', 'slug'], static: true, replies: { 200: { description: 'Markdown with YAML front matter', type: 'text/markdown', schema: { type: 'string' } }, 404: notFoundPage } },
  ...feedOperations(),
  'GET /sitemap.xml': {
    tag: 'Feeds',
    summary: 'Sitemap with hreflang alternates',
    description: `A urlset of every page with its hreflang alternates while the site has at most ${SITEMAP_MAX_URLS_DEFAULT.toLocaleString('en')} URLs (the build's FOLIO_SITEMAP_MAX_URLS); past it, a sitemapindex of parts at /sitemaps/1.xml, /sitemaps/2.xml, ... (static files, each a urlset of at most that many URLs and 10 MB, with the same alternates, and the latest lastmod of its URLs).`,
    static: true,
    replies: { 200: { description: 'Sitemap, or sitemap index', type: 'application/xml', schema: { type: 'string' } } },
  },
  'GET /openapi.json': { tag: 'Discovery', replies: { 200: ok({ type: 'object', description: 'This document' }) }, json: true },
  'GET /robots.txt': { tag: 'Discovery', replies: { 200: text('robots.txt: User-agent: *, Allow: / (or the paths robots_disallow in site.yaml names), and the absolute Sitemap address') } },
  'GET /llms.txt': { tag: 'Discovery', replies: { 200: text('llms.txt (llmstxt.org): H1, summary, sections of links to the Markdown twins and the API') } },
  'GET /{lang}/llms.txt': { tag: 'Discovery', parameters: ['langPath'], replies: { 200: text('llms.txt of the posts available in one language'), 404: notFoundPage } },
  'GET /llms-full.txt': {
    tag: 'Discovery',
    description: `Every English post's Markdown twin, newest first, while they fit in ${LLMS_FULL_MAX_BYTES_DEFAULT.toLocaleString('en')} bytes (the build's FOLIO_LLMS_FULL_MAX_BYTES); past it, the newest that fit, after a line naming the parts /llms-full/1.txt (the oldest posts) to /llms-full/{n}.txt, which hold the older posts oldest first, each within the same bound (static files).`,
    static: true,
    replies: { 200: text('The English posts in Markdown') },
  },
  'GET /agents.md': { tag: 'Discovery', replies: { 200: markdown('How an agent should use each surface, limits, attribution, event signatures') } },
  'GET /auth.md': { tag: 'Discovery', replies: { 200: markdown('The public-access model') } },
  'GET /mcp/docs': { tag: 'MCP', replies: { 200: markdown('MCP tools with schemas and examples, both transports') } },
  'GET /mcp/server-card': { tag: 'Discovery', replies: { 200: ok('ServerCard') }, json: true },
  'GET /.well-known/mcp/server-card.json': { tag: 'Discovery', replies: { 200: ok('ServerCard') }, json: true },
  'GET /.well-known/mcp.json': { tag: 'Discovery', replies: { 200: ok('ServerCard') }, json: true },
  'GET /.well-known/agent-card.json': { tag: 'Discovery', replies: { 200: ok('AgentCard') }, json: true },
  'GET /.well-known/agent.json': { tag: 'Discovery', replies: { 200: ok('AgentCard') }, json: true },
  'GET /.well-known/api-catalog': {
    tag: 'Discovery',
    description: 'RFC 9727 linkset. GET and HEAD carry a Link header with rel="api-catalog".',
    replies: { 200: { description: 'The API catalog', type: 'application/linkset+json', schema: 'Linkset', headers: ['Link'] } },
  },
  'GET /.well-known/oauth-protected-resource': { tag: 'Discovery', replies: { 200: ok({ type: 'object', description: 'RFC 9728 metadata', required: ['resource', 'scopes_supported'] }) }, json: true },
  'GET /.well-known/oauth-authorization-server': { tag: 'Discovery', replies: { 200: ok({ type: 'object', description: 'RFC 8414 metadata; no token issuance', required: ['issuer', 'scopes_supported'] }) }, json: true },
  'GET /.well-known/openid-configuration': { tag: 'Discovery', replies: { 200: ok({ type: 'object', description: 'OpenID discovery; no token issuance', required: ['issuer', 'scopes_supported'] }) }, json: true },
  'GET /.well-known/agent-skills/index.json': { tag: 'Discovery', static: true, replies: { 200: ok('SkillsIndex') }, json: true },
  'GET /.well-known/agent-skills/{skill}/SKILL.md': { tag: 'Discovery', static: true, parameters: ['skill'], replies: { 200: markdown('The skill, byte-identical to its sha256 in the index'), 404: notFoundPage } },
  'GET /graphql': {
    tag: 'GraphQL',
    description: 'Without query: the SDL as text/plain (its schema description names the calendar version 2026-06). With ?introspection or Accept: application/json (and no query): the introspection result. With ?query= (and optional variables, operationName): executes, as GraphQL over HTTP. A mutation over GET is 405.',
    parameters: ['gqlQuery', 'gqlVariables', 'gqlOperationName', 'introspection'],
    replies: {
      200: { description: 'SDL, introspection JSON, or a GraphQL response', type: 'text/plain', schema: { type: 'string' }, also: { 'application/json': 'GraphQLResponse', 'application/graphql-response+json': 'GraphQLResponse' } },
      400: { description: 'Parse or validation failure (application/graphql-response+json), a bad request, or a query over the limits', type: 'application/graphql-response+json', schema: 'GraphQLResponse', also: { 'application/json': 'GraphQLResponse' } },
      405: { description: 'A mutation over GET', type: 'application/graphql-response+json', schema: 'GraphQLResponse', also: { 'application/json': 'GraphQLResponse' } },
      406: notAcceptable,
    },
  },
  'POST /graphql': {
    tag: 'GraphQL',
    description: 'GraphQL over HTTP. Read-only schema (no mutations): site, languages, posts(first, after, lang, fallback, category, tag) and search(query, lang, fallback, first, after) as Relay connections, post(slug, lang, fallback), citation(slug, lang, fallback), categories(lang), tags(lang). first is 1 to 100 (default 10). Errors carry extensions.code: GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED, BAD_USER_INPUT, NOT_FOUND, TRANSLATION_UNAVAILABLE, QUERY_TOO_COMPLEX, INTERNAL_SERVER_ERROR. With Accept: application/graphql-response+json, parse and validation failures are 4xx; with application/json they are 200.',
    body: { schema: 'GraphQLRequest', description: 'The operation', example: { query: '{ posts(first: 2) { totalCount edges { cursor node { slug title } } } }' }, required: true },
    replies: {
      200: { description: 'data and/or errors', schema: 'GraphQLResponse', also: { 'application/graphql-response+json': 'GraphQLResponse' } },
      400: { description: 'Parse or validation failure (application/graphql-response+json), a malformed body, or a query over the limits', type: 'application/graphql-response+json', schema: 'GraphQLResponse', also: { 'application/json': 'GraphQLResponse' } },
      406: notAcceptable,
      415: { description: 'Unsupported Content-Type', type: 'application/graphql-response+json', schema: 'GraphQLResponse', also: { 'application/json': 'GraphQLResponse' } },
    },
  },
  'POST /contact/send': {
    tag: 'Contact',
    description: 'A message to the site owner, paid per message with x402 version 2 and an ERC-2612 permit. Without PAYMENT-SIGNATURE: 402 with the offer. Sign the permit it describes (spender = extra.spender, value = amount, the token\'s current nonce, a deadline) and repeat the request with PAYMENT-SIGNATURE: base64 JSON {x402Version: 2, resource, accepted, payload: {signature, permit: {owner, spender, value, nonce, deadline}}} (numbers as decimal strings). Fields are checked first (422, nothing charged). The same payment retried returns the original 200 and is never charged twice; the same permit with a different message is 409. Cache-Control: no-store.',
    parameters: ['paymentSignature'],
    body: { schema: 'ContactRequest', description: 'The message', example: { sender: 'research-agent-7', body: 'Hello, I enjoyed the essay on tides.', reply_to: 'agent@example.com' }, required: true },
    replies: {
      200: { description: 'Paid, settled on chain and stored (or the original answer to a retry)', schema: 'ContactSent', headers: ['PAYMENT-RESPONSE'] },
      400: { description: 'The body is not JSON', schema: 'Error' },
      402: { description: 'Payment required, or the payment was refused (error, errorReason); nothing charged', schema: 'PaymentRequiredBody', headers: ['PAYMENT-REQUIRED', 'PAYMENT-RESPONSE'] },
      409: { description: 'This permit already paid for a different message', schema: 'Error' },
      422: { description: 'Missing or invalid fields (checked before any payment)', schema: 'ContactInvalid' },
      503: { description: 'Paid contact is switched off or not configured, or its chain is unreachable', schema: 'Error', headers: ['Retry-After'] },
    },
    json: true,
  },
};
