import { availableLanguages } from '../core/availability.ts';
import type { Core } from '../core/index.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, language } from '../core/languages.ts';
import { absolute, paths } from '../core/urls.ts';
import { FEEDS } from '../core/formats.ts';
import { LLMS_POSTS_MAX } from '../core/limits.ts';
import { llmsFullMaxBytes } from './llms-full.ts';

/**
 * llms.txt (llmstxt.org): an H1, a blockquote summary, then sections of links. Posts link to
 * their Markdown twins; the API section to the machine-readable surfaces. One per language,
 * listing what is available in it, and llms-full.txt with the English posts inline (llms-full.ts).
 */
const url = (core: Core, path: string) => absolute(core.catalog, `${core.catalog.base}${path}`);

/**
 * The posts available in `lang`, newest first, at most `max` of them (a line of about 100 to 200
 * bytes each: LLMS_POSTS_MAX keeps a file within about 200 KB); past it, a last link to the API's
 * list of them all.
 */
function postLinks(core: Core, lang: string, max: number): string[] {
  const { catalog } = core;
  const posts = catalog.posts.filter((p) => availableLanguages(p, core.index.policy).includes(lang));
  const links = posts.slice(0, max).map((p) => {
    const entry = p.entries[lang]!;
    return `- [${entry.title}](${absolute(catalog, paths.markdown(catalog, p.slug, lang))})${entry.summary ? `: ${entry.summary}` : ''}`;
  });
  if (posts.length > max) {
    const list = absolute(catalog, paths.api(catalog, '/api/posts', lang === DEFAULT_LANGUAGE ? {} : { lang }));
    links.push(`- [Every post](${list}): these are the ${max.toLocaleString('en')} newest of ${posts.length.toLocaleString('en')}; the API lists them all, newest first, page by page (\`page=2\`, …), and ${absolute(catalog, paths.sitemap(catalog))} names every page`);
  }
  return links;
}

function apiLinks(core: Core): string[] {
  return [
    `- [OpenAPI description](${url(core, '/openapi.json')}): every endpoint, parameter and response`,
    `- [API reference](${url(core, '/api')}): the JSON endpoint index, or an HTML page for browsers`,
    `- [Guide for agents](${url(core, '/agents.md')}): which surface to use, limits, attribution, event signatures`,
    `- [MCP server](${url(core, '/mcp/docs')}): tools list_posts, get_post, search_posts (and each post's citation as a resource) over streamable HTTP at ${url(core, '/mcp')}`,
    `- [Cite a post](${url(core, `/api/posts/${core.catalog.posts[0]?.slug ?? 'a-post'}/cite`)}): CSL-JSON and APA, MLA, Chicago, BibTeX text for a post in a language (\`?lang=\`)`,
    `- [GraphQL schema](${url(core, '/graphql')}): read-only, calendar version 2026-06`,
    `- [Search](${url(core, '/api/search?q=attention')}): relevance-ranked with snippets; streams at /api/stream/search`,
    `- [Access model](${url(core, '/auth.md')}): public reads, no keys`,
    `- [Paid contact](${url(core, '/agents.md')}): POST ${url(core, '/contact/send')} sends the author a message, paid with x402 (an ERC-2612 permit)`,
  ];
}

export function llmsTxt(core: Core, lang = DEFAULT_LANGUAGE, maxPosts = LLMS_POSTS_MAX): string {
  const { site } = core.catalog;
  const l = language(lang);
  const other = LANGUAGES.filter((x) => x.code !== lang && core.index.languagesWithPosts.includes(x.code));
  return [
    `# ${site.name}${lang === DEFAULT_LANGUAGE ? '' : ` (${l.native_name})`}`,
    '',
    `> ${site.descriptions[lang] ?? site.description}`,
    '',
    `Essays by ${site.author}, in English with automated translations into ${LANGUAGES.length - 1} languages. ${site.attribution}`,
    `Append \`.md\` to any post URL for Markdown, or send \`Accept: application/json\` (on Cloudflare Workers, where pages are static files by default, read \`/api/posts/<slug>\` instead). Add \`?lang=<code>\` to API requests; \`fallback=en\` fills untranslated posts with the English original.`,
    '',
    `## Posts${lang === DEFAULT_LANGUAGE ? '' : ` (${l.name})`}`,
    '',
    ...postLinks(core, lang, maxPosts),
    '',
    '## API',
    '',
    ...apiLinks(core),
    '',
    '## Optional',
    '',
    `- [Everything in one file](${url(core, '/llms-full.txt')}): every English post in Markdown, newest first (past ${(llmsFullMaxBytes() / 1e6).toLocaleString('en')} MB the newest, naming the parts that hold the older ones)`,
    ...other.map((x) => `- [${x.native_name}](${url(core, `/${x.code === DEFAULT_LANGUAGE ? '' : `${x.code}/`}llms.txt`)}): posts in ${x.name}`),
    ...FEEDS.map((f) => `- [Feed: ${f.label}](${absolute(core.catalog, paths.feed(core.catalog, lang, f.file))}): the newest posts`),
    '',
  ].join('\n');
}
