import { LANGUAGE_CODES } from '../../core/languages.ts';

/** Top-level paths a post slug may not take, because a surface lives there. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  ...LANGUAGE_CODES,
  'api', 'mcp', 'graphql', 'sandbox', 'ask', 'contact', 'status', 'media', 'page', 'category', 'tag', 'search',
  'feed', 'feed-xml', 'sitemap', 'sitemaps', 'openapi', 'llms', 'llms-full', 'agents', 'auth', 'well-known', 'favicon',
  'robots', '404', '500', '_astro', 'assets', 'index',
]);
