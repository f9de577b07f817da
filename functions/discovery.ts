import { FORMATS } from '../src/core/formats.ts';
import { LANGUAGE_CODES, DEFAULT_LANGUAGE } from '../src/core/languages.ts';
import { agentsMd, authMd, mcpDocs } from '../src/discovery/guides.ts';
import { llmsTxt } from '../src/discovery/llms.ts';
import { robotsTxt } from '../src/discovery/robots.ts';
import { agentCard, apiCatalog, authorizationServer, mcpServerCard, openidConfiguration, protectedResource } from '../src/discovery/well-known.ts';
import { openApiDocument } from '../src/openapi/document.ts';
import { BATCH_MAX } from '../src/core/limits.ts';
import type { Core } from '../src/core/index.ts';
import { madeJson, madeText } from './http.ts';
import { madeRoute, type MakeInput, type Maker, type Route } from './route.ts';

/**
 * The documents that describe this service to programs, generated from the code and site
 * settings on first request and kept per root (they change only with a new build).
 */
const cache = new WeakMap<Core, Map<string, Promise<unknown>>>();
function once<T>(input: MakeInput, key: string, make: () => T | Promise<T>): Promise<T> {
  let byKey = cache.get(input.root.core);
  if (!byKey) cache.set(input.root.core, (byKey = new Map()));
  if (!byKey.has(key)) byKey.set(key, Promise.resolve(make()));
  return byKey.get(key) as Promise<T>;
}

const PLAIN = 'text/plain; charset=utf-8';
const LINKSET = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

const jsonDoc = (key: string, make: (input: MakeInput) => unknown): Maker => async (input) => madeJson(await once(input, key, () => make(input)));
const textDoc = (key: string, type: string, make: (input: MakeInput) => string | Promise<string>): Maker => async (input) => madeText(await once(input, key, () => make(input)), type);

const card = jsonDoc('server-card', ({ root, host }) => mcpServerCard(root.core, host.version));
const agent = jsonDoc('agent-card', ({ root, host }) => agentCard(root.core, host.version));

const catalogLink = ({ root }: MakeInput) => `<${root.base}/.well-known/api-catalog>; rel="api-catalog", <${root.base}/openapi.json>; rel="service-desc", <${root.base}/api>; rel="service-doc"`;

export function discoveryRoutes(all: () => readonly Route[]): Route[] {
  return [
    madeRoute({ query: 'none', path: '/openapi.json', searches: true, summary: 'OpenAPI 3.0.3 description of every endpoint', make: jsonDoc('openapi', ({ root, host }) => openApiDocument(root.core, all(), host.version)) }),
    madeRoute({ query: 'none', path: '/robots.txt', summary: 'robots.txt: what crawlers may read, and where the sitemap is', make: textDoc('robots', PLAIN, ({ root }) => robotsTxt(root.core)) }),
    madeRoute({ query: 'none', path: '/llms.txt', summary: 'llms.txt: the site for language models, with links to Markdown', make: textDoc('llms', PLAIN, ({ root }) => llmsTxt(root.core)) }),
    madeRoute({
      query: 'none',
      path: '/:lang/llms.txt',
      summary: 'llms.txt of one language',
      claims: (params) => LANGUAGE_CODES.includes(params.lang!) && params.lang !== DEFAULT_LANGUAGE,
      make: (input) => textDoc(`llms-${input.params.lang}`, PLAIN, ({ root, params }) => llmsTxt(root.core, params.lang))(input),
    }),
    madeRoute({
      query: 'none',
      path: '/agents.md',
      printsLimits: true,
      summary: 'How an agent should use each surface',
      make: textDoc('agents', FORMATS.markdown.contentType, ({ root, host }) => agentsMd(root.core, { batchMax: BATCH_MAX, ...host.limits, publishedSigningKey: root.signingKeyPublished ? root.signingSecret : undefined })),
    }),
    madeRoute({ query: 'none', path: '/auth.md', summary: 'The public-access model', make: textDoc('auth', FORMATS.markdown.contentType, ({ root }) => authMd(root.core)) }),
    madeRoute({ query: 'none', path: '/mcp/docs', summary: 'MCP tools, schemas, examples and transports', make: textDoc('mcp-docs', FORMATS.markdown.contentType, ({ root, host }) => mcpDocs(root.core, host.version)) }),
    madeRoute({ query: 'none', path: '/mcp/server-card', summary: 'MCP server card (SEP-2127 location)', make: card }),
    madeRoute({ query: 'none', path: '/.well-known/mcp/server-card.json', summary: 'MCP server card', make: card }),
    madeRoute({ query: 'none', path: '/.well-known/mcp.json', summary: 'MCP server card (SEP-1649 alias)', make: card }),
    madeRoute({ query: 'none', path: '/.well-known/agent-card.json', summary: 'A2A agent card', make: agent }),
    madeRoute({ query: 'none', path: '/.well-known/agent.json', summary: 'A2A agent card (older location)', make: agent }),
    madeRoute({
      query: 'none',
      path: '/.well-known/api-catalog',
      summary: 'RFC 9727 API catalog (linkset)',
      make: async (input) => madeText(JSON.stringify(await once(input, 'api-catalog', () => apiCatalog(input.root.core))), LINKSET, 200, { link: catalogLink(input) }),
    }),
    madeRoute({ query: 'none', path: '/.well-known/oauth-protected-resource', summary: 'RFC 9728 protected resource metadata (discovery only)', make: jsonDoc('oauth-pr', ({ root }) => protectedResource(root.core)) }),
    madeRoute({ query: 'none', path: '/.well-known/oauth-authorization-server', summary: 'RFC 8414 metadata (discovery only; no token issuance)', make: jsonDoc('oauth-as', ({ root }) => authorizationServer(root.core)) }),
    madeRoute({ query: 'none', path: '/.well-known/openid-configuration', summary: 'OpenID discovery (discovery only; no token issuance)', make: jsonDoc('oidc', ({ root }) => openidConfiguration(root.core)) }),
  ];
}
