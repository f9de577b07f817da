import type { Core } from '../core/index.ts';
import { absolute } from '../core/urls.ts';
import { JSON_DEPTH_MAX, MIN_SEND_RATE_DEFAULT } from '../core/limits.ts';
import type { QueryShape } from '../core/params.ts';
import { answerFile } from '../pipeline/publish/answer-file.ts';
import * as resources from '../schemas/resources.ts';
import type { Schema } from '../schemas/resources.ts';
import { OPERATIONS, type Operation, type Reply } from './operations.ts';
import { PARAMETERS } from './parameters.ts';

/**
 * OpenAPI 3.0.3 for one content root, assembled from the route table (which paths exist), the
 * operations list (what each takes and answers), the shared JSON Schemas, and examples computed
 * by the core from the corpus being served.
 */
export interface RouteLike {
  method?: string;
  path: string;
  summary: string;
  hidden?: boolean;
  /** The answer is published as a file keyed by these query parameters (functions/routes.ts). */
  query?: QueryShape;
}

/** What each query shape reads, in the canonical order that names published files. */
const SHAPE_PARAMETERS: Record<QueryShape, string> = {
  none: 'none (any query string is ignored)',
  lang: 'lang',
  content: 'lang, fallback',
  list: 'lang, fallback, page, per_page',
  search: 'q, page',
};

/** Where a static host finds a published answer (`x-published` on its operation). */
function published(route: RouteLike, type: string): Schema | undefined {
  if (!route.query) return undefined;
  const path = openApiPath(route.path);
  return {
    file: answerFile(path, '', type),
    ...(route.query === 'none' ? {} : { 'file-for-query': answerFile(path, '{canonical query}', type), 'canonical-query': `${SHAPE_PARAMETERS[route.query]}: in this order, defaults left out (lang=en, page=1, per_page=10), lang lower-case; every page of per_page=10 is published` }),
  };
}

/** Validators and caching on every cacheable answer. */
const CACHE_HEADERS = ['ETag', 'Cache-Control', 'Vary'];

export const SCHEMAS: Record<string, Schema> = {
  PostSummary: resources.postSummary,
  SearchHit: resources.searchHit,
  PostDetail: resources.postDetail,
  ResponseMeta: resources.responseMeta,
  Pagination: resources.pagination,
  Collection: resources.collection,
  Single: resources.single,
  PageSingle: resources.pageSingle,
  Citation: resources.citationBody,
  ImageRecord: resources.imageRecord,
  SearchBody: resources.searchBody,
  TaxonomyList: resources.taxonomyList,
  Languages: resources.languages,
  Site: resources.site,
  Product: resources.product,
  Status: resources.status,
  ApiIndex: resources.apiIndex,
  AskRequest: resources.askRequest,
  AskAnswer: resources.askAnswer,
  AskError: resources.askError,
  BatchRequest: resources.batchRequest,
  BatchResult: resources.batchResult,
  JsonRpcRequest: resources.jsonRpcRequest,
  JsonRpcResponse: resources.jsonRpcResponse,
  Error: resources.error,
  LanguageError: resources.languageError,
  TranslationUnavailable: resources.translationUnavailable,
  ContactRequest: resources.contactRequest,
  PaymentRequiredBody: resources.paymentRequiredBody,
  ContactInvalid: resources.contactInvalid,
  ContactSent: resources.contactSent,
  GraphQLRequest: resources.graphqlRequest,
  GraphQLResponse: resources.graphqlResponse,
  ServerCard: resources.serverCard,
  AgentCard: resources.agentCard,
  Linkset: resources.linkset,
  SkillsIndex: resources.skillsIndex,
};

const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/** `/api/posts/:slug` as OpenAPI writes it. */
export const openApiPath = (routePath: string) => routePath.replace(/:(\w+)/g, '{$1}');

const ref = (schema: string | Schema): Schema => (typeof schema === 'string' ? { $ref: `#/components/schemas/${schema}` } : schema);

function reply(r: Reply, json: boolean, example: unknown, cacheable: boolean): Schema {
  const type = r.type ?? 'application/json';
  const content: Record<string, Schema> = {};
  if (r.schema) content[type] = { schema: ref(r.schema), ...(example !== undefined && type === 'application/json' ? { example } : {}) };
  for (const [media, schema] of Object.entries(r.also ?? {})) content[media] = { schema: ref(schema) };
  const headers = [...(json && type === 'application/json' ? RATE_HEADERS : []), ...(cacheable ? CACHE_HEADERS : []), ...(r.headers ?? [])];
  return {
    description: r.description,
    ...(Object.keys(content).length ? { content } : {}),
    ...(headers.length ? { headers: Object.fromEntries(headers.map((h) => [h, { $ref: `#/components/headers/${h}` }])) } : {}),
  };
}

/** An operation's own 400 widened with the app's (a malformed path or query string: {error}). */
function orBadRequest(own: Schema): Schema {
  const content = Object.fromEntries(
    Object.entries((own.content ?? {}) as Record<string, Schema>).map(([media, c]) => {
      const schema = c.schema as Schema;
      const plain = !/json/.test(media) || schema.$ref === '#/components/schemas/Error';
      return [media, plain ? c : { ...c, schema: { anyOf: [schema, { $ref: '#/components/schemas/Error' }] } }];
    }),
  );
  return { ...own, description: `${own.description as string}; or a malformed path or query string ({error})`, content };
}

function operation(key: string, op: Operation, summary: string, examples: Record<string, unknown>, route?: RouteLike): Schema {
  const [method] = key.split(' ');
  const responses: Record<string, Schema> = {};
  const cacheable = method === 'GET' && op.replies[200]?.type !== 'text/event-stream';
  for (const [status, r] of Object.entries(op.replies)) responses[status] = reply(r, op.json === true, status === '200' ? examples[key] : undefined, cacheable && status === '200');
  if (cacheable) responses['304'] = { description: 'Not modified (If-None-Match matched the ETag)', headers: { ETag: { $ref: '#/components/headers/ETag' } } };
  const file = route && published(route, op.replies[200]?.type ?? 'application/json');
  responses['400'] = responses['400'] ? orBadRequest(responses['400']) : { $ref: '#/components/responses/BadRequest' };
  responses['401'] = { $ref: '#/components/responses/BearerRejected' };
  // What the server answers before any operation runs: a slow or oversized request.
  responses['408'] = { $ref: '#/components/responses/TooSlow' };
  if (method === 'POST') responses['413'] = { $ref: '#/components/responses/TooLarge' };
  responses['431'] = { $ref: '#/components/responses/HeadersTooLarge' };
  responses['429'] = { $ref: '#/components/responses/RateLimited' };
  return {
    tags: [op.tag],
    summary: op.summary ?? summary,
    ...(op.description ? { description: op.description } : {}),
    operationId: key.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, ''),
    ...(op.parameters ? { parameters: op.parameters.map((p) => ({ $ref: `#/components/parameters/${p}` })) } : {}),
    ...(file ? { 'x-published': file } : {}),
    ...(op.body
      ? { requestBody: { required: op.body.required ?? true, description: op.body.description, content: { [op.body.type ?? 'application/json']: { schema: ref(op.body.schema), ...(op.body.example ? { example: op.body.example } : {}) } } } }
      : {}),
    responses,
  };
}

/** Example bodies for the 200s, answered by the core from the served corpus. */
async function examplesFrom(core: Core): Promise<Record<string, unknown>> {
  const first = core.catalog.posts[0]?.slug;
  const p = (init: Record<string, string> = {}) => new URLSearchParams(init);
  const list = core.posts.list(p({ per_page: '1' }));
  const word = core.catalog.posts[0]?.entries.en?.title.split(/\s+/).find((w) => w.length > 3) ?? 'web';
  return {
    'GET /api/languages': core.languages(),
    'GET /api/site': core.site(p()),
    'GET /api/posts': list,
    'GET /mcp/v1/posts': list,
    ...(first ? { 'GET /api/posts/{slug}': await core.posts.get(first, p()) } : {}),
    ...(core.catalog.pages[0] ? { 'GET /api/pages/{slug}': await core.pages.get(core.catalog.pages[0].slug, p()) } : {}),
    'GET /api/search': (await core.search(p({ q: word, per_page: '1' }))).body,
    'GET /api/categories': core.terms.list('categories', p()),
    'GET /api/tags': core.terms.list('tags', p()),
    'GET /api/products/the-value-layer': core.product(),
  };
}

export async function openApiDocument(core: Core, routes: readonly RouteLike[], version: string, extra: Record<string, Operation> = {}): Promise<Schema> {
  const { site } = core.catalog;
  const examples = await examplesFrom(core);
  const operations = { ...OPERATIONS, ...extra };
  const paths: Record<string, Record<string, Schema>> = {};
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method ?? 'GET'} ${openApiPath(route.path)}`;
    const op = operations[key];
    if (!op) {
      if (route.hidden) continue;
      throw new Error(`OpenAPI: route ${key} has no entry in src/openapi/operations.ts`);
    }
    seen.add(key);
    (paths[openApiPath(route.path)] ??= {})[(route.method ?? 'GET').toLowerCase()] = operation(key, op, route.summary, examples, route);
  }
  for (const [key, op] of Object.entries(operations)) {
    if (seen.has(key) || !op.static) continue;
    const [method, path] = key.split(' ') as [string, string];
    (paths[path] ??= {})[method.toLowerCase()] = operation(key, op, op.summary ?? path, examples);
  }
  const server = absolute(core.catalog, core.catalog.base);
  return {
    openapi: '3.0.3',
    info: {
      title: `${site.name} API`,
      version,
      description: `${site.description}\n\nRead-only content in 14 languages, public (no key). Every JSON body under /api/ carries attribution: ${site.attribution}\n\nErrors are {error}; an unsupported lang adds supported_languages; an unavailable translation answers the translation-unavailable body with fallback_url. Unknown API paths are 404 {"error": "Not found"} (other unknown paths the site's HTML not-found page). Besides the answers listed with each operation, any path may answer: 204 to the CORS preflight (OPTIONS); 400 {error} for bad percent-encoding or a dot segment in its path or query string, more than one Host header, or a request the HTTP parser refuses; 401 to a bearer token; 405 {error} with Allow for a method it does not take (TRACE, CONNECT and unknown methods included); 408 {error} when the headers take over 10 s or the whole request over 30 s (and a connection whose client takes nothing of an answer for 30 s, or takes its answers slower than ${MIN_SEND_RATE_DEFAULT} bytes a second after those 30 s, is reset); 413 {error} for a body over 64 KiB (at once, without 100 Continue, when it is declared with Expect: 100-continue) or a JSON body whose arrays and objects nest deeper than ${JSON_DEPTH_MAX} levels; 416 {error} with Content-Range for a byte range a media file cannot satisfy; 429 {error} with Retry-After over the rate limit; 431 {error} for headers over 16 KiB. Every JSON answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset when the limit is on, the 400, 405, 408 and 431 the server writes before a request reaches the API included.\n\nStatic-first: every answer that depends only on its path and the default per_page is published as a file at build time (x-published names it: {path}/index.json, or {path}/_query/{canonical query}.json for a query), byte-identical to the computed answer, so a static host or CDN serves the same bytes. Cacheable answers carry a strong ETag (the SHA-256 of the bytes; a br or gzip body has its own, suffixed -br or -gz) and Cache-Control: public, max-age=60, s-maxage=300, stale-while-revalidate=86400 for API answers and documents, max-age=0 with the same s-maxage and stale-while-revalidate for HTML pages; bodies of 1 KiB or more are sent br or gzip when Accept-Encoding allows (Vary: Accept-Encoding, and Accept wherever Accept chooses the representation: post URLs, /api, /api/search, /graphql; a GraphQL result sent as application/graphql-response+json has its own ETag, suffixed -gr).`,
      contact: { name: site.author, url: server },
      license: { name: 'Content: all rights reserved; cite with the attribution text' },
    },
    servers: [{ url: server, description: core.catalog.base ? 'Sandbox (fixed test corpus)' : 'This site' }],
    security: [{}, { public: [] }],
    tags: [...new Set(Object.values(operations).map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: SCHEMAS,
      parameters: PARAMETERS,
      headers: {
        'X-RateLimit-Limit': { description: 'Requests allowed per window', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { description: 'Unix time (seconds) when the window resets', schema: { type: 'integer' } },
        'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
        ETag: { description: 'Strong validator: the SHA-256 of the bytes, base64url, 27 characters; suffixed -br or -gz for a compressed body', schema: { type: 'string' } },
        'Cache-Control': { description: 'public, max-age=60, s-maxage=300, stale-while-revalidate=86400 (pages: max-age=0; hashed assets: immutable)', schema: { type: 'string' } },
        Vary: { description: 'Accept-Encoding on bodies of 1 KiB or more; Accept too wherever it chooses the representation (post URLs, /api, /api/search, /graphql)', schema: { type: 'string' } },
        'WWW-Authenticate': { description: 'Bearer error="invalid_token", resource_metadata="<SITE_URL>/.well-known/oauth-protected-resource"', schema: { type: 'string' } },
        Link: { description: 'RFC 8288 links: rel="api-catalog", "service-desc", "service-doc"', schema: { type: 'string' } },
        'PAYMENT-REQUIRED': { description: 'x402 v2 PaymentRequired, base64 JSON', schema: { type: 'string' } },
        'PAYMENT-RESPONSE': { description: 'x402 v2 SettleResponse, base64 JSON', schema: { type: 'string' } },
      },
      responses: {
        BearerRejected: {
          description: 'A bearer token was sent. Reads are public: omit the Authorization header.',
          headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        RateLimited: {
          description: 'Rate limited (fixed window per client, default 1000 requests per 60 s); wait Retry-After seconds',
          headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        BadRequest: { description: 'A malformed path or query string (invalid percent-encoding, a dot segment)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        TooSlow: { description: 'The headers took over 10 s, or the whole request over 30 s; the connection closes', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        HeadersTooLarge: { description: 'Request headers over 16 KiB; the connection closes', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        TooLarge: { description: `Request body over 64 KiB, or JSON nested deeper than ${JSON_DEPTH_MAX} levels (checked before the body is parsed)`, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
      securitySchemes: {
        public: { type: 'http', scheme: 'bearer', description: 'Stands for anonymous access: no token is needed or accepted. Any bearer token gets 401; omit the header.' },
      },
    },
  };
}
