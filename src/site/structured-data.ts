import type { Catalog } from '../core/types.ts';
import { absolute } from '../core/urls.ts';

/** schema.org objects the pages' JSON-LD shares. */

/** The raster logo Google asks of a publisher (public/logo.png: the favicon at 512 px). */
export const LOGO = { path: '/logo.png', width: 512, height: 512 };

export const publisher = (catalog: Catalog) => ({
  '@type': 'Organization',
  name: catalog.site.name,
  url: absolute(catalog, `${catalog.base}/`),
  logo: { '@type': 'ImageObject', url: absolute(catalog, LOGO.path), width: LOGO.width, height: LOGO.height },
});

/** A BreadcrumbList of site paths (or absolute URLs), the last the page itself. */
export const breadcrumbs = (catalog: Catalog, trail: { name: string; href: string }[]) => ({
  '@context': 'https://schema.org',
  '@type': 'BreadcrumbList',
  itemListElement: trail.map((crumb, i) => ({ '@type': 'ListItem', position: i + 1, name: crumb.name, item: absolute(catalog, crumb.href) })),
});
