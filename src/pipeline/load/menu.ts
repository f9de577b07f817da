import { FileError } from './file-error.ts';
import type { MenuItem } from '../../core/types.ts';
import type { LoadedSite } from './site.ts';

/**
 * The site menu (`menu:` of site.yaml) checked against the content: each slug names a page or a
 * category (a page first when both have it); an unknown one is a content error, added to `errors`.
 */
export function menuOf(site: LoadedSite, pages: ReadonlySet<string>, categories: ReadonlySet<string>, errors: FileError[]): MenuItem[] {
  const menu: MenuItem[] = [];
  for (const slug of site.menu) {
    if (pages.has(slug)) menu.push({ kind: 'page', slug, ...(site.menuNames[slug] ? { names: site.menuNames[slug] } : {}) });
    else if (categories.has(slug)) menu.push({ kind: 'category', slug });
    else {
      const known = [...[...pages].map((p) => `page ${p}`), ...[...categories].map((c) => `category ${c}`)].join(', ');
      errors.push(new FileError(site.menuAt.file, 'menu', `"${slug}" is neither a page (pages/${slug}/en.md) nor a category slug (known: ${known || 'none'})`, site.menuAt.line));
    }
  }
  return menu;
}
