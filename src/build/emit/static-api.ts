import { toJson, type Core } from '../../core/index.ts';
import { availableLanguages } from '../../core/availability.ts';
import { markdownDocument } from '../../core/markdown-document.ts';
import { PRODUCT_SLUG } from '../../core/site.ts';
import { paths } from '../../core/urls.ts';
import { apiFile, type Publisher } from './publisher.ts';

const none = new URLSearchParams();

/**
 * The canonical static answers (default query of each endpoint) and the Markdown twins,
 * produced by the same core functions the server calls, so the bytes are the same.
 */
export async function emitStaticApi(core: Core, out: Publisher): Promise<void> {
  const { base } = core.catalog;
  const put = (path: string, body: unknown) => out.write(apiFile(`${base}${path}`), toJson(body));
  await put('/api/posts', core.posts.list(none));
  await put('/mcp/v1/posts', core.posts.list(none));
  await put('/api/languages', core.languages());
  await put('/api/site', core.site(none));
  await put(`/api/products/${PRODUCT_SLUG}`, core.product());
  for (const kind of ['categories', 'tags'] as const) {
    await put(`/api/${kind}`, core.terms.list(kind, none));
    for (const slug of core.index.terms[kind].keys()) await put(`/api/${kind}/${slug}`, core.terms.posts(kind, slug, none));
  }
  for (const post of core.catalog.posts) {
    await put(`/api/posts/${post.slug}`, await core.posts.get(post.slug, none));
    for (const lang of availableLanguages(post, core.index.policy)) {
      const single = await core.posts.get(post.slug, new URLSearchParams({ lang }));
      await out.write(paths.markdown(core.catalog, post.slug, lang), markdownDocument(single));
    }
  }
}
