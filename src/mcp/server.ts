import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { FolioError } from '../core/errors.ts';
import { toJson, type Core } from '../core/index.ts';
import type { EntryMeta, PostRecord } from '../core/types.ts';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '../core/languages.ts';
import { markdownDocument } from '../core/markdown-document.ts';
import { absolute, paths } from '../core/urls.ts';
import { CITATION_DESCRIPTION, citationTemplate, mcpInstructions, TOOLS, TOOL_DESCRIPTORS } from './tools.ts';

/**
 * An MCP server over one content root: the three tools, every available post-language
 * as a Markdown resource addressed by its page URL, and each post's citation as a template. Built per request (stateless HTTP) or per
 * session (legacy SSE); it holds nothing but the core.
 */
export const RESOURCES_PAGE = 100;

/**
 * Where each post's available languages begin in the list of every available post-language (the
 * last: the list's length), once per core (a server is built per request): 4 bytes a post, where
 * the list itself took some 700 bytes a post.
 */
const listed = new WeakMap<Core, Uint32Array>();
function resourceStarts(core: Core): Uint32Array {
  let starts = listed.get(core);
  if (!starts) {
    const posts = core.catalog.posts;
    const at = new Uint32Array(posts.length + 1);
    posts.forEach((post, i) => (at[i + 1] = at[i]! + (core.index.available.get(post)?.length ?? 0)));
    listed.set(core, (starts = at));
  }
  return starts;
}

/** Items `start` to `start + count` of the list of every available post-language (posts in order, each in its languages' order), and its length. */
function resourceEntries(core: Core, start: number, count: number): { slice: { post: PostRecord; lang: string; entry: EntryMeta }[]; total: number } {
  const posts = core.catalog.posts;
  const starts = resourceStarts(core);
  const slice: { post: PostRecord; lang: string; entry: EntryMeta }[] = [];
  // The first post whose languages reach past `start`.
  let lo = 0;
  let hi = posts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid + 1]! <= start) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < posts.length && slice.length < count; i++) {
    const post = posts[i]!;
    const langs = core.index.available.get(post) ?? [];
    for (let k = Math.max(0, start - starts[i]!); k < langs.length && slice.length < count; k++) slice.push({ post, lang: langs[k]!, entry: post.entries[langs[k]!]! });
  }
  return { slice, total: starts[posts.length]! };
}

/**
 * A JSON-RPC error as the SDK sends it (its code, message and data). Not McpError, whose message
 * starts "MCP error <code>: ", which clients print again in front of it.
 */
const rpcError = (code: number, message: string, data?: unknown) => Object.assign(new Error(message), { code, data });

/** Why a tools/call cannot run, where the SDK would answer -32603 with a raw schema dump. */
function badToolCall(message: JSONRPCMessage): string | undefined {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return undefined;
  const params = message.params as Record<string, unknown> | undefined;
  if (!params || typeof params.name !== 'string') return 'tools/call needs params {name, arguments} with the tool\'s name as a string.';
  const args = params.arguments;
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) return '"arguments" must be an object of the tool\'s parameters.';
  return undefined;
}

/** Connects a server to a transport, answering malformed tool calls -32602 before the SDK sees them. */
export async function connectMcp(server: Server, transport: Transport): Promise<void> {
  await server.connect(transport);
  const receive = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    const bad = badToolCall(message);
    if (bad === undefined || !('id' in message)) return receive(message, extra);
    void transport.send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${bad}` } }, { relatedRequestId: message.id }).catch(() => {});
  };
}

const CITATION_PATH = /^\/api\/posts\/([a-z0-9-]+)\/cite$/;

/** What a resource URI on this origin reads as (a post's Markdown or its citation); undefined for any other URI. */
function readResource(core: Core, origin: string, uri: string): Promise<{ mimeType: string; text: string }> | undefined {
  if (!uri.startsWith(`${origin}/`)) return undefined;
  const [path, search = ''] = uri.slice(origin.length).split('?', 2) as [string, string?];
  const cited = CITATION_PATH.exec(path);
  if (cited) return Promise.resolve({ mimeType: 'application/json', text: toJson(core.posts.cite(cited[1]!, new URLSearchParams(search))) });
  if (search) return undefined;
  const parts = path.slice(1).split('/');
  const [lang, slug] = parts.length === 2 ? parts : [DEFAULT_LANGUAGE, parts[0]];
  if (!slug || parts.length > 2) return undefined;
  return core.posts.get(slug, new URLSearchParams({ lang: lang! })).then((body) => ({ mimeType: 'text/markdown', text: markdownDocument(body) }));
}

export function createMcpServer(core: Core, version: string): Server {
  const { catalog } = core;
  const server = new Server(
    { name: catalog.site.name, title: `${catalog.site.name} (Folio)`, version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: `Read-only essays in ${LANGUAGE_CODES.length} languages. ${mcpInstructions(core)}`,
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_DESCRIPTORS }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw rpcError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}". Tools: ${TOOLS.map((t) => t.name).join(', ')}.`);
    return tool.run(core, request.params.arguments ?? {});
  });

  server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    const start = Number(request.params?.cursor ?? 0);
    if (!Number.isInteger(start) || start < 0) throw rpcError(ErrorCode.InvalidParams, 'Invalid cursor.');
    const { slice, total } = resourceEntries(core, start, RESOURCES_PAGE);
    return {
      resources: slice.map(({ post, lang, entry }) => ({
        uri: absolute(catalog, paths.post(catalog, post.slug, lang)),
        name: lang === DEFAULT_LANGUAGE ? post.slug : `${lang}/${post.slug}`,
        title: entry.title,
        ...(entry.summary ? { description: entry.summary } : {}),
        mimeType: 'text/markdown',
      })),
      ...(start + RESOURCES_PAGE < total ? { nextCursor: String(start + RESOURCES_PAGE) } : {}),
    };
  });

  const origin = absolute(catalog, catalog.base);
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      { uriTemplate: `${origin}/{slug}`, name: 'post', title: 'A post in English (Markdown)', mimeType: 'text/markdown' },
      { uriTemplate: `${origin}/{lang}/{slug}`, name: 'translated-post', title: 'A post in another language (Markdown)', mimeType: 'text/markdown' },
      { uriTemplate: citationTemplate(origin), name: 'post-citation', title: 'How to cite a post (CSL-JSON, APA, MLA, Chicago, BibTeX)', description: CITATION_DESCRIPTION, mimeType: 'application/json' },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    try {
      const read = readResource(core, origin, uri);
      if (!read) throw rpcError(-32002, `Resource not found: ${uri}`);
      return { contents: [{ uri, ...(await read) }] };
    } catch (e) {
      if (e instanceof FolioError) throw rpcError(-32002, `Resource not found: ${e.message}`, { uri });
      throw e;
    }
  });

  return server;
}
