import type { Core } from '../core/index.ts';
import { LANGUAGE_CODES } from '../core/languages.ts';
import { absolute } from '../core/urls.ts';
import { mcpInstructions, TOOLS, TOOL_DESCRIPTORS } from '../mcp/tools.ts';

/**
 * The /.well-known documents, built from the site settings, the tool list and the skills.
 * Discovery only: the OAuth and OpenID documents describe a resource that issues no tokens.
 */
export const SCOPES = ['content.read', 'search.read', 'product.read'];
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

const url = (core: Core, path = '') => absolute(core.catalog, `${core.catalog.base}${path}`);

/** One card with the fields of both server-card proposals (SEP-1649's serverInfo/transport, SEP-2127's remotes). */
export function mcpServerCard(core: Core, version: string) {
  const { site } = core.catalog;
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: `io.folio/${site.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}${core.catalog.base ? '-sandbox' : ''}`,
    title: site.name,
    version,
    description: `${site.description} Read-only essays in ${LANGUAGE_CODES.length} languages: list, read and search.`,
    websiteUrl: url(core, '/'),
    documentationUrl: url(core, '/mcp/docs'),
    remotes: [
      { type: 'streamable-http', url: url(core, '/mcp'), supportedProtocolVersions: MCP_PROTOCOL_VERSIONS },
      { type: 'sse', url: url(core, '/mcp/sse'), supportedProtocolVersions: ['2024-11-05'] },
    ],
    serverInfo: { name: site.name, title: `${site.name} (Folio)`, version },
    protocolVersion: MCP_PROTOCOL_VERSIONS[0],
    transport: { type: 'streamable-http', endpoint: `${core.catalog.base}/mcp`, url: url(core, '/mcp') },
    capabilities: { tools: { listChanged: false }, resources: { subscribe: false, listChanged: false } },
    authentication: { required: false, schemes: [] },
    instructions: mcpInstructions(core),
    tools: TOOL_DESCRIPTORS.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema })),
  };
}

/** A2A agent card (served at agent-card.json and the older agent.json). */
export function agentCard(core: Core, version: string) {
  const { site } = core.catalog;
  return {
    protocolVersion: '0.3.0',
    name: site.name,
    description: `${site.description} A read-only essay library with search and a natural-language endpoint.`,
    url: url(core, '/ask'),
    preferredTransport: 'HTTP+JSON',
    additionalInterfaces: [
      { url: url(core, '/mcp'), transport: 'MCP' },
      { url: url(core, '/graphql'), transport: 'GraphQL' },
    ],
    version,
    provider: { organization: site.author, url: url(core, '/') },
    documentationUrl: url(core, '/agents.md'),
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    securitySchemes: {},
    security: [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['application/json', 'text/markdown', 'text/event-stream'],
    skills: [
      { id: 'ask', name: 'Answer from the essays', description: 'POST /ask with a question in any of the 14 languages; returns the best matching essays (NLWeb).', tags: ['search', 'nlweb'], examples: ['why does the slow web matter?'] },
      ...TOOLS.map((t) => ({ id: t.name, name: t.title, description: t.description, tags: ['mcp', 'read-only'], examples: [JSON.stringify(t.example)] })),
    ],
  };
}

/** RFC 9727 linkset: where the API, its description, docs and status live. */
export function apiCatalog(core: Core) {
  return {
    linkset: [
      {
        anchor: url(core, '/api'),
        'service-desc': [{ href: url(core, '/openapi.json'), type: 'application/vnd.oai.openapi+json;version=3.0' }],
        'service-doc': [
          { href: url(core, '/api'), type: 'text/html' },
          { href: url(core, '/agents.md'), type: 'text/markdown' },
          { href: url(core, '/llms.txt'), type: 'text/plain' },
        ],
        'service-meta': [{ href: url(core, '/.well-known/mcp/server-card.json'), type: 'application/json' }],
        status: [{ href: url(core, '/status'), type: 'application/json' }],
      },
      { anchor: url(core, '/graphql'), 'service-desc': [{ href: url(core, '/graphql'), type: 'text/plain' }], 'service-doc': [{ href: url(core, '/agents.md'), type: 'text/markdown' }] },
      { anchor: url(core, '/mcp'), 'service-doc': [{ href: url(core, '/mcp/docs'), type: 'text/markdown' }] },
    ],
  };
}

/** RFC 9728. */
export function protectedResource(core: Core) {
  return {
    resource: url(core, '/'),
    resource_name: core.catalog.site.name,
    authorization_servers: [absolute(core.catalog, '')],
    scopes_supported: SCOPES,
    bearer_methods_supported: [],
    resource_documentation: url(core, '/auth.md'),
    resource_policy_uri: url(core, '/auth.md'),
  };
}

const NO_TOKENS = 'Discovery only: this service issues no tokens. All reads are public and anonymous; see auth.md.';

/** RFC 8414, describing an issuer with no grants. */
export function authorizationServer(core: Core) {
  return {
    issuer: absolute(core.catalog, ''),
    scopes_supported: SCOPES,
    response_types_supported: [],
    grant_types_supported: [],
    token_endpoint_auth_methods_supported: ['none'],
    service_documentation: absolute(core.catalog, '/auth.md'),
    op_policy_uri: absolute(core.catalog, '/auth.md'),
    description: NO_TOKENS,
  };
}

/** OpenID Provider Metadata shape, for discovery only. */
export function openidConfiguration(core: Core) {
  return {
    ...authorizationServer(core),
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [],
    claims_supported: [],
  };
}
