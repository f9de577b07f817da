import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errors, FolioError } from '../core/errors.ts';
import type { Core } from '../core/index.ts';
import { DEFAULT_LANGUAGE } from '../core/languages.ts';
import { absolute } from '../core/urls.ts';
import { markdownDocument } from '../core/markdown-document.ts';
import { messages, plural } from '../core/messages.ts';
import { argumentsAsParams, PER_PAGE_DEFAULT, PER_PAGE_MAX, QUERY_MAX_CHARS } from '../core/params.ts';
import type { Collection } from '../core/posts.ts';
import type { SearchBody } from '../core/search.ts';
import { collection, input, languageCode, searchBody, single, toJsonSchema, type Schema } from '../schemas/resources.ts';

/**
 * The MCP tools: each maps its arguments to the query string of the REST endpoint it mirrors
 * and returns that endpoint's envelope as `structuredContent`, so the core validates and
 * answers exactly as it does for REST. Bad arguments become `isError` results.
 */
export type ToolResult = CallToolResult;

export interface Tool {
  name: string;
  title: string;
  description: string;
  /** The REST request this tool mirrors, for the docs. */
  rest: string;
  inputSchema: Schema;
  outputSchema: Schema;
  example: Record<string, unknown>;
  run(core: Core, args: Record<string, unknown>): Promise<ToolResult>;
}

const lang: Schema = { ...languageCode, description: 'Language of the content (default en; case-insensitive)' };
const fallback: Schema = { type: 'string', enum: ['en'], description: 'Fill posts unavailable in lang with the English original' };
const page: Schema = { type: 'integer', minimum: 1, default: 1, description: 'Page number' };
const perPage: Schema = { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: PER_PAGE_DEFAULT, description: 'Items per page' };
const slug: Schema = { type: 'string', pattern: '^[a-z0-9-]+$', description: 'Term slug' };
const postSlug: Schema = { ...slug, description: 'Post slug' };

const CONTENT = { lang: 'lang', fallback: 'fallback' };
const PAGE = { page: 'page', per_page: 'per_page' };

const text = (t: string): ToolResult['content'] => [{ type: 'text', text: t }];

const listing = (body: Collection | SearchBody, heading: string) =>
  [heading, ...body.data.map((p, i) => `${i + 1}. ${p.title} (${p.date.slice(0, 10)}, ${p.language})\n   ${p.url}\n   ${'snippet' in p ? p.snippet : p.summary ?? ''}${'missing_words' in p && p.missing_words.length > 0 ? `\n   Missing: ${p.missing_words.join(', ')}` : ''}`)].join('\n');

async function guarded(run: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof FolioError) return { content: text(e.message), isError: true };
    throw e;
  }
}

const structured = (body: object) => body as Record<string, unknown>;

/** A tool over one post (slug, lang, fallback): its REST answer and a text rendering of it. */
function postTool(t: Pick<Tool, 'name' | 'title' | 'description' | 'rest' | 'outputSchema' | 'example'> & { answer: (core: Core, slug: string, query: URLSearchParams) => Promise<{ text: string; body: object }> }): Tool {
  const { answer, ...described } = t;
  return {
    ...described,
    inputSchema: input({ slug: postSlug, lang, fallback }, ['slug']),
    run: (core, args) =>
      guarded(async () => {
        if (typeof args.slug !== 'string') throw errors.invalidRequest('Argument "slug" (a string) is required.');
        const { text: rendering, body } = await answer(core, args.slug, argumentsAsParams(args, CONTENT));
        return { content: text(rendering), structuredContent: structured(body) };
      }),
  };
}

export const TOOLS: Tool[] = [
  {
    name: 'list_posts',
    title: 'List posts',
    description: 'Post summaries, newest first, in one language; optionally only a category or a tag. Same answer as GET /api/posts (or /api/categories/{slug}, /api/tags/{slug}).',
    rest: 'GET /api/posts',
    inputSchema: input({ page, per_page: perPage, lang, fallback, category: slug, tag: slug }, []),
    outputSchema: collection,
    example: { lang: 'fr', per_page: 3 },
    run: (core, args) =>
      guarded(async () => {
        if (args.category !== undefined && args.tag !== undefined) throw errors.invalidRequest('Give "category" or "tag", not both.');
        const query = argumentsAsParams(args, { ...PAGE, ...CONTENT });
        const term = args.category ?? args.tag;
        if (term !== undefined && typeof term !== 'string') throw errors.invalidRequest('A category or tag must be a slug string.');
        const body = term === undefined ? core.posts.list(query) : core.terms.posts(args.category !== undefined ? 'categories' : 'tags', term, query);
        const { page: at, total_pages, total } = body.pagination;
        return { content: text(listing(body, `Posts (page ${at} of ${total_pages}, ${total} in all, language ${body.meta.language}):`)), structuredContent: structured(body) };
      }),
  },
  postTool({
    name: 'get_post',
    title: 'Get a post',
    description: 'One post with its full body (HTML and Markdown), links, media and outline. Same answer as GET /api/posts/{slug}. An unavailable translation is an error naming the fallback.',
    rest: 'GET /api/posts/{slug}',
    outputSchema: single,
    example: { slug: 'the-slow-web', lang: 'es' },
    answer: async (core, slug, query) => {
      const body = await core.posts.get(slug, query);
      return { text: markdownDocument(body), body };
    },
  }),
  {
    name: 'search_posts',
    title: 'Search posts',
    description: 'Full-text search in one language, most relevant first, with snippets; other forms of a word (walked for walk) and typos (tidle for tide) match too, ranked after the word itself; quoted words match as a phrase; posts holding every word come first, then those holding most, each naming the words it lacks (missing_words); suggestion is the query it likely means (did you mean), else null. Same answer as GET /api/search.',
    rest: 'GET /api/search',
    inputSchema: input(
      { query: { type: 'string', minLength: 1, maxLength: QUERY_MAX_CHARS, description: 'Search words ("quoted words" match as a phrase)' }, lang, fallback, page, per_page: perPage },
      ['query'],
    ),
    outputSchema: searchBody,
    example: { query: 'tide', lang: 'en' },
    run: (core, args) =>
      guarded(async () => {
        const { body } = await core.search(argumentsAsParams(args, { query: 'q', ...CONTENT, ...PAGE }));
        // The tools speak English whatever the language searched: the count is the search page's English message.
        const count = plural(DEFAULT_LANGUAGE, messages(DEFAULT_LANGUAGE).resultCount, body.total, { n: body.total, q: body.query });
        return { content: text(listing(body, `${count} (language ${body.meta.language}):`)), structuredContent: structured(body) };
      }),
  },
];

/**
 * The citation of a post, as the REST route answers it (its URL is the resource's): the contract
 * names exactly three tools, so citing is a resource template rather than a fourth tool.
 */
export const citationTemplate = (origin: string) => `${origin}/api/posts/{slug}/cite{?lang,fallback}`;
export const CITATION_DESCRIPTION =
  'The same JSON as GET /api/posts/{slug}/cite and GraphQL citation: a CSL-JSON item (data.csl) and APA 7, MLA 9, Chicago 17 and BibTeX text for the post in lang (fallback=en fills an unavailable translation).';

/** What the server tells a client it offers (initialize and the server card say the same). */
export const mcpInstructions = (core: Core) =>
  `search_posts finds posts, get_post reads one (lang, fallback=en), list_posts pages through them; the resource ${citationTemplate(absolute(core.catalog, core.catalog.base))} cites one. ${core.catalog.site.attribution}`;

/** The tools as `tools/list` describes them (JSON Schema proper, not OpenAPI's dialect), made once. */
export const TOOL_DESCRIPTORS = TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: toJsonSchema(t.inputSchema) as Schema,
  outputSchema: toJsonSchema(t.outputSchema) as Schema,
  annotations: { readOnlyHint: true, openWorldHint: false },
}));
