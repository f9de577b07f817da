import type { Core } from '../core/index.ts';

/**
 * /robots.txt: every crawler may read everything but the paths `robots_disallow` names in
 * site.yaml, and the sitemap is at its absolute address.
 */
export function robotsTxt(core: Core): string {
  const { site, site_url } = core.catalog;
  const disallow = site.robots_disallow.map((p) => `Disallow: ${p}`);
  return ['User-agent: *', ...(disallow.length ? disallow : ['Allow: /']), '', `Sitemap: ${site_url}/sitemap.xml`, ''].join('\n');
}
