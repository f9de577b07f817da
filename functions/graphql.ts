import { getOperationAST, GraphQLError, introspectionFromSchema, printSchema } from 'graphql';
import { createYoga, processRegularResult, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { FORMATS } from '../src/core/formats.ts';
import { negotiate } from '../src/core/negotiate.ts';
import { formatError } from '../src/graphql/errors.ts';
import { explainAbortedValidation, limitsRule, parseWithinLimits } from '../src/graphql/limits.ts';
import type { GraphQLContext } from '../src/graphql/resolvers.ts';
import { schema } from '../src/graphql/schema.ts';
import type { RequestContext, Root } from './context.ts';
import { CACHE_PUBLIC, json, text } from './http.ts';
import { etagOf } from './etag.ts';
import type { Route } from './route.ts';

/**
 * GraphQL over HTTP at /graphql (and /sandbox/graphql) with Yoga. GET without `query` describes
 * the schema (SDL, or introspection JSON); GET with `query` and POST execute.
 */
const SDL_TEXT = printSchema(schema);
const INTROSPECTION = { data: introspectionFromSchema(schema) };

/** Document size and query depth and cost, checked before anything is resolved. */
const limits: Plugin = {
  onParse({ setParseFn }) {
    setParseFn(parseWithinLimits);
  },
  onValidate({ addValidationRule, validateFn, setValidationFn }) {
    addValidationRule(limitsRule);
    setValidationFn((...args) => explainAbortedValidation(validateFn(...args)));
  },
};

/**
 * The schema has no mutations, so a mutation is a validation error on every method. Over POST
 * graphql-js says so; over GET this answers first (with the 405 GraphQL over HTTP asks for),
 * where Yoga would call it a bad request.
 */
const mutationsAreInvalid: Plugin = {
  onParse() {
    return ({ result, context }) => {
      const { request, params } = context as { request?: Request; params?: { operationName?: string | null } };
      if (request?.method !== 'GET' || !result || result instanceof Error) return;
      const operation = getOperationAST(result, params?.operationName ?? undefined);
      if (operation?.operation !== 'mutation') return;
      throw new GraphQLError('This API is read-only: the schema has no mutations.', {
        nodes: operation,
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 405, headers: { allow: 'POST' } } },
      });
    };
  },
};

/**
 * JSON answers only. The schema has nothing to stream (no subscriptions, no @defer), and Folio's
 * event streams are its signed ones; Yoga would also answer text/event-stream and multipart/mixed.
 * A client that accepts JSON at all gets JSON; one that accepts only those gets 406, as Yoga
 * answers any other media type it cannot produce.
 */
const jsonOnly: Plugin = {
  onResultProcess({ resultProcessor, setResultProcessor }) {
    if (resultProcessor && resultProcessor !== processRegularResult) {
      setResultProcessor(() => new Response(null, { status: 406 }), 'application/json');
    }
  },
};

const yogas = new WeakMap<Root, YogaServerInstance<object, GraphQLContext>>();

/** One Yoga per content root, made on first use and kept. */
function yogaFor(root: Root): YogaServerInstance<object, GraphQLContext> {
  let yoga = yogas.get(root);
  if (!yoga) {
    yoga = createYoga<object, GraphQLContext>({
      schema,
      context: { core: root.core },
      graphqlEndpoint: `${root.base}/graphql`,
      // The SDL is served at GET /graphql; no in-page IDE that would load scripts from a CDN.
      graphiql: false,
      landingPage: false,
      // The front server puts CORS on every response.
      cors: false,
      maskedErrors: { maskError: formatError },
      plugins: [limits, mutationsAreInvalid, jsonOnly],
      // Web-standard objects in and out, like every other function.
      fetchAPI: { Request, Response, Headers, ReadableStream, URL, URLSearchParams, TextEncoder, TextDecoder, Blob, FormData, fetch },
    });
    yogas.set(root, yoga);
  }
  return yoga;
}

/** Yoga answers a client that accepts no JSON (406) without a body; every refusal here has the errors form. */
function withBody(response: Response): Response {
  if (response.status !== 406 || response.headers.get('content-type')) return response;
  return requestError(406, 'Not acceptable: this endpoint answers application/graphql-response+json or application/json.', { accept: 'application/graphql-response+json, application/json' });
}

/** A request GraphQL over HTTP refuses before running anything, in the `errors` form. */
function requestError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json({ errors: [{ message, extensions: { code: 'BAD_USER_INPUT' } }] }, status, { 'cache-control': 'no-store', ...headers });
}

/** The bodies POST takes: JSON, or the document itself (application/graphql). */
const POST_TYPES = new Set(['application/json', 'application/graphql']);

const NO_QUERY = 'Must provide query string.';

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/**
 * Is there no document to run? Yoga answers that 200 to application/json clients, but it is a
 * request that is not well formed, which GraphQL over HTTP answers 4xx whatever the media type
 * (unlike parse and validation failures, 200 for application/json).
 */
async function lacksQuery(request: Request, type: string): Promise<boolean> {
  const body = await request.clone().text();
  if (type === 'application/graphql') return body.trim() === '';
  try {
    const value = JSON.parse(body) as unknown;
    return !!value && typeof value === 'object' && !Array.isArray(value) && ((value as { query?: unknown }).query ?? '') === '';
  } catch {
    return false;
  }
}

/** What Yoga would pass over or answer without a body or with 200: malformed GET parameters, other body types, no query. */
async function refuse(ctx: RequestContext): Promise<Response | undefined> {
  if (ctx.request.method === 'POST') {
    const type = (ctx.request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!POST_TYPES.has(type)) return requestError(415, `Unsupported Content-Type "${type}": send the request as application/json.`, { accept: 'application/json' });
    return (await lacksQuery(ctx.request, type)) ? requestError(400, NO_QUERY) : undefined;
  }
  if (!ctx.url.searchParams.get('query')) return requestError(400, NO_QUERY);
  for (const name of ['variables', 'extensions']) {
    const raw = ctx.url.searchParams.get(name);
    if (!raw) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return requestError(400, `The "${name}" parameter must be a JSON object.`);
    }
    if (value !== null && (typeof value !== 'object' || Array.isArray(value))) return requestError(400, `The "${name}" parameter must be a JSON object.`);
  }
  return undefined;
}

async function execute(ctx: RequestContext): Promise<Response> {
  const refused = await refuse(ctx);
  if (refused) return refused;
  const read = ctx.request.method !== 'POST';
  // HEAD is answered as GET (the front server drops the body); Yoga itself knows only GET and POST.
  const response = withBody(await yogaFor(ctx.root).fetch(ctx.request.method === 'HEAD' ? new Request(ctx.request, { method: 'GET' }) : ctx.request));
  // A GET result is the same for everyone until the next build; anything else is not kept.
  response.headers.set('cache-control', read && response.status === 200 ? CACHE_PUBLIC : 'no-store');
  return read && response.status === 200 ? withRepresentationEtag(response) : response;
}

/**
 * The same result is sent as application/json or application/graphql-response+json: one ETag per
 * media type (the bytes' hash, suffixed for the second), so a validator of one never gets a 304 for the other.
 */
async function withRepresentationEtag(response: Response): Promise<Response> {
  if (!(response.headers.get('content-type') ?? '').startsWith(GRAPHQL_RESPONSE)) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  headers.set('etag', (await etagOf(body)).replace(/"$/, '-gr"'));
  return new Response(body, { status: response.status, headers });
}

function describe(ctx: RequestContext): Response {
  const wantsJson = ctx.url.searchParams.has('introspection') || negotiate(ctx.request.headers.get('accept'), [FORMATS.text, FORMATS.json]) === FORMATS.json;
  return wantsJson ? json(INTROSPECTION) : text(SDL_TEXT, FORMATS.text.contentType);
}

export const graphqlRoutes: Route[] = [
  {
    path: '/graphql',
    summary: 'GraphQL schema (SDL as text/plain; introspection JSON with ?introspection or Accept: application/json); ?query= executes',
    vary: 'Accept',
    handler: (ctx) => (ctx.url.searchParams.has('query') ? execute(ctx) : describe(ctx)),
  },
  { method: 'POST', path: '/graphql', summary: 'GraphQL query (read-only, version 2026-06): {query, variables, operationName}', vary: 'Accept', handler: execute },
];
