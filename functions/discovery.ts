import type { Core } from '../src/core/index.ts';
import { FORMATS } from '../src/core/formats.ts';
import { LANGUAGE_CODES, DEFAULT_LANGUAGE } from '../src/core/languages.ts';
import { agentsMd, authMd, mcpDocs } from '../src/discovery/guides.ts';
import { llmsFullTxt, llmsTxt } from '../src/discovery/llms.ts';
import { robotsTxt } from '../src/discovery/robots.ts';
import { agentCard, apiCatalog, authorizationServer, mcpServerCard, openidConfiguration, protectedResource } from '../src/discovery/well-known.ts';
import { openApiDocument } from '../src/openapi/document.ts';
import { BATCH_MAX } from '../src/core/limits.ts';
import type { Handler, RequestContext } from './context.ts';
import { json, text } from './http.ts';
import type { Route } from './route.ts';

/**
 * The documents that describe this service to programs, generated from the code and site
 * settings on first request and kept per root (they change only with a new build).
 */
const cache = new WeakMap<Core, Map<string, Promise<unknown>>>();
function once<T>(ctx: RequestContext, key: string, make: () => T | Promise<T>): Promise<T> {
  let byKey = cache.get(ctx.root.core);
  if (!byKey) cache.set(ctx.root.core, (byKey = new Map()));
  if (!byKey.has(key)) byKey.set(key, Promise.resolve(make()));
  return byKey.get(key) as Promise<T>;
}

const PLAIN = 'text/plain; charset=utf-8';
const LINKSET = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

const jsonDoc = (key: string, make: (ctx: RequestContext) => unknown): Handler => async (ctx) => json(await once(ctx, key, () => make(ctx)));
const textDoc = (key: string, type: string, make: (ctx: RequestContext) => string | Promise<string>): Handler => async (ctx) => text(await once(ctx, key, () => make(ctx)), type);

const card = jsonDoc('server-card', (ctx) => mcpServerCard(ctx.root.core, ctx.host.version));
const agent = jsonDoc('agent-card', (ctx) => agentCard(ctx.root.core, ctx.host.version));

const catalogLink = (ctx: RequestContext) => `<${ctx.root.base}/.well-known/api-catalog>; rel="api-catalog", <${ctx.root.base}/openapi.json>; rel="service-desc", <${ctx.root.base}/api>; rel="service-doc"`;

export function discoveryRoutes(all: () => readonly Route[]): Route[] {
  return [
    { query: 'none', path: '/openapi.json', searches: true, summary: 'OpenAPI 3.0.3 description of every endpoint', handler: jsonDoc('openapi', (ctx) => openApiDocument(ctx.root.core, all(), ctx.host.version)) },
    { query: 'none', path: '/robots.txt', summary: 'robots.txt: what crawlers may read, and where the sitemap is', handler: textDoc('robots', PLAIN, (ctx) => robotsTxt(ctx.root.core)) },
    { query: 'none', path: '/llms.txt', summary: 'llms.txt: the site for language models, with links to Markdown', handler: textDoc('llms', PLAIN, (ctx) => llmsTxt(ctx.root.core)) },
    {
      query: 'none',
      path: '/:lang/llms.txt',
      summary: 'llms.txt of one language',
      claims: (params) => LANGUAGE_CODES.includes(params.lang!) && params.lang !== DEFAULT_LANGUAGE,
      handler: (ctx) => textDoc(`llms-${ctx.params.lang}`, PLAIN, (c) => llmsTxt(c.root.core, c.params.lang))(ctx),
    },
    { query: 'none', path: '/llms-full.txt', summary: 'Every English post in one Markdown file', handler: textDoc('llms-full', PLAIN, (ctx) => llmsFullTxt(ctx.root.core)) },
    {
      query: 'none',
      path: '/agents.md',
      printsLimits: true,
      summary: 'How an agent should use each surface',
      handler: textDoc('agents', FORMATS.markdown.contentType, (ctx) => agentsMd(ctx.root.core, { batchMax: BATCH_MAX, ...ctx.host.limits, publishedSigningKey: ctx.root.signingKeyPublished ? ctx.root.signingSecret : undefined })),
    },
    { query: 'none', path: '/auth.md', summary: 'The public-access model', handler: textDoc('auth', FORMATS.markdown.contentType, (ctx) => authMd(ctx.root.core)) },
    { query: 'none', path: '/mcp/docs', summary: 'MCP tools, schemas, examples and transports', handler: textDoc('mcp-docs', FORMATS.markdown.contentType, (ctx) => mcpDocs(ctx.root.core, ctx.host.version)) },
    { query: 'none', path: '/mcp/server-card', summary: 'MCP server card (SEP-2127 location)', handler: card },
    { query: 'none', path: '/.well-known/mcp/server-card.json', summary: 'MCP server card', handler: card },
    { query: 'none', path: '/.well-known/mcp.json', summary: 'MCP server card (SEP-1649 alias)', handler: card },
    { query: 'none', path: '/.well-known/agent-card.json', summary: 'A2A agent card', handler: agent },
    { query: 'none', path: '/.well-known/agent.json', summary: 'A2A agent card (older location)', handler: agent },
    {
      query: 'none',
      path: '/.well-known/api-catalog',
      summary: 'RFC 9727 API catalog (linkset)',
      handler: async (ctx) => text(JSON.stringify(await once(ctx, 'api-catalog', () => apiCatalog(ctx.root.core))), LINKSET, 200, { link: catalogLink(ctx) }),
    },
    { query: 'none', path: '/.well-known/oauth-protected-resource', summary: 'RFC 9728 protected resource metadata (discovery only)', handler: jsonDoc('oauth-pr', (ctx) => protectedResource(ctx.root.core)) },
    { query: 'none', path: '/.well-known/oauth-authorization-server', summary: 'RFC 8414 metadata (discovery only; no token issuance)', handler: jsonDoc('oauth-as', (ctx) => authorizationServer(ctx.root.core)) },
    { query: 'none', path: '/.well-known/openid-configuration', summary: 'OpenID discovery (discovery only; no token issuance)', handler: jsonDoc('oidc', (ctx) => openidConfiguration(ctx.root.core)) },
  ];
}
