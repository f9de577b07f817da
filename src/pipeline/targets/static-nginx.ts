import type { Manifest } from '../publish/manifest.ts';
import { NGINX_RUN, quote } from './nginx.ts';

/** `_headers` as blocks: a path (a prefix when it ends in `/*`) and its headers. */
export function parseHeaders(text: string): { path: string; headers: [string, string][] }[] {
  const blocks: { path: string; headers: [string, string][] }[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    if (!line.startsWith(' ')) blocks.push({ path: line.trim(), headers: [] });
    else {
      const at = line.indexOf(':');
      blocks.at(-1)!.headers.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
    }
  }
  return blocks;
}

/**
 * The type a plain server gives each extension: the build's own spelling of the host's type where
 * `_headers` relies on it (HOST_TYPES: its type rules cover the files of other types), else the type
 * of most of the build's files with it.
 */
function typesByExtension(manifest: Manifest, hostTypes: Record<string, string>): [string, string][] {
  const counts = new Map<string, Map<string, number>>();
  for (const f of manifest.files) {
    const ext = /\.([a-z0-9]+)$/i.exec(f.file)?.[1]?.toLowerCase();
    if (!ext) continue;
    const byType = counts.get(ext) ?? new Map<string, number>();
    counts.set(ext, byType.set(f.type, (byType.get(f.type) ?? 0) + 1));
  }
  return [...counts].map(([ext, byType]) => {
    const types = [...byType].sort((a, b) => b[1] - a[1]).map(([type]) => type);
    return [ext, types.find((t) => t.split(';')[0] === hostTypes[ext]) ?? types[0]!];
  });
}

/**
 * nginx.conf serving `dist/static` as a plain static host, with no Node behind it: each URL at its
 * file (`/api/posts` at `/api/posts/index.json`, a page at `/x/index.html`), a canonical query at its
 * `_query` file (a query with no file is a 404 on API paths, ignored elsewhere), `_headers`'
 * headers and types, `_redirects`' redirects, and 404.html.
 */
export function staticNginxConf(manifest: Manifest, hostTypes: Record<string, string>, headersText: string, redirectsText: string, root: string, listen: string): string {
  const blocks = parseHeaders(headersText);
  const all = blocks.find((b) => b.path === '/*')?.headers ?? [];
  const addHeaders = (headers: [string, string][], indent: string) => headers.filter(([k]) => k.toLowerCase() !== 'content-type').map(([k, v]) => `${indent}add_header ${k} ${quote(v)} always;`).join('\n');
  const located = blocks.filter((b) => b.path !== '/*').map((b) => {
    const prefix = b.path.endsWith('/*');
    const type = b.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    return `    location ${prefix ? '^~ ' : '= '}${b.path.replace(/\*$/, '')} {\n${type ? `      types { }\n      default_type ${quote(type)};\n` : ''}${addHeaders([...all, ...b.headers], '      ')}\n      try_files $folio_query $uri $uri/index.html $folio_default =404;\n    }`;
  });
  const redirects = redirectsText.split('\n').map((l) => l.trim().split(/\s+/)).filter((r) => r[2] === '301' || r[2] === '302');
  const rewrites = redirects.map(([from, to, status]) => (from!.endsWith('/*') ? `    rewrite ^${from!.slice(0, -1)}(.*)$ ${to!.replace(':splat', '$1')} ${status === '301' ? 'permanent' : 'redirect'};` : `    location = ${from} { return ${status} ${to}; }`));
  return `# Written by \`npm run build -- --target static\`: dist/static on a plain nginx, no Node behind it.
# Run: nginx -p dist/static-hosts -c nginx.conf (README "Deploy"); on a server of your own, set root.
${NGINX_RUN}
  types {
${typesByExtension(manifest, hostTypes).map(([ext, type]) => `    ${quote(type)} ${ext};`).join('\n')}
  }
  default_type application/octet-stream;
  gzip_static on;
  gzip_vary on;
  # A query's answer is at {path}/_query/{canonical query}.json; a path's default answer at its index file.
  map $args $folio_query {
    "" /-;
    default $uri/_query/$args.json;
  }
  map $args $folio_default {
    "" $uri/index.json;
    default /-;
  }

  server {
    listen ${listen};
    root ${root};
    error_page 404 /404.html;
${addHeaders(all, '    ')}
${rewrites.join('\n')}

    location / {
${addHeaders(all, '      ')}
      try_files $folio_query $uri $uri/index.html $folio_default $uri/index.md =404;
    }
    # Pages and documents ignore a query string; API answers exist for canonical queries only.
    location ~ ^/(api|sandbox/api|mcp/v1|sandbox/mcp/v1)(/|$) {
${addHeaders(all, '      ')}
      try_files $folio_query $uri $folio_default =404;
    }
${located.join('\n')}
  }
}
`;
}
