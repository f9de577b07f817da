import { FolioError } from '../src/core/errors.ts';
import { FORMATS } from '../src/core/formats.ts';
import { DEFAULT_LANGUAGE } from '../src/core/languages.ts';
import { markdownDocument } from '../src/core/markdown-document.ts';
import { negotiate } from '../src/core/negotiate.ts';
import type { Handler } from './context.ts';
import { errorJson, json, text } from './http.ts';

const OFFERS = [FORMATS.html, FORMATS.json, FORMATS.markdown] as const;
const VARY = { vary: 'Accept' };

/**
 * `/{slug}` and `/{lang}/{slug}`: HTML by default, the API envelope for JSON, the Markdown
 * document for Markdown (the route table only sends known posts here).
 */
export const negotiatePost: Handler = async (ctx) => {
  const lang = ctx.params.lang ?? DEFAULT_LANGUAGE;
  const slug = ctx.params.slug!;
  const format = negotiate(ctx.request.headers.get('accept'), OFFERS);
  const params = new URLSearchParams(ctx.url.search);
  params.set('lang', lang);
  let single;
  try {
    single = await ctx.root.core.posts.get(slug, params);
  } catch (e) {
    if (!(e instanceof FolioError)) throw e;
    if (format === FORMATS.json) return errorJson(e, VARY);
    if (format === FORMATS.markdown) {
      const english = String(e.details.english_url ?? '');
      return text(`# Not available\n\n${e.message}\n\nEnglish original: ${english}\n`, FORMATS.markdown.contentType, 404, VARY);
    }
    return undefined;
  }
  if (format === FORMATS.json) return json(single, 200, VARY);
  if (format === FORMATS.markdown) return text(markdownDocument(single), FORMATS.markdown.contentType, 200, VARY);
  const page = await ctx.host.assets.fetch(ctx.url.pathname, ctx.request);
  if (!page) return undefined;
  page.headers.set('vary', 'Accept');
  return page;
};
