import { NGINX_RUN, quote } from './nginx.ts';
import { STATIC_API, STATIC_TRIES, type StaticHostRules } from './static-host-rules.ts';

const NAMES: Record<string, string> = { '{query}': '$folio_query', '{default}': '$folio_default', '{uri}': '$uri', '{args}': '$args' };
const tries = (list: string[]) => list.map((t) => t.replace(/\{[a-z]+\}/g, (p) => NAMES[p]!)).join(' ');
const addHeaders = (headers: [string, string][], indent: string) => headers.map(([k, v]) => `${indent}add_header ${k} ${quote(v)} always;`).join('\n');

/**
 * nginx.conf serving `dist/static` as a plain static host, with no Node behind it (static-host-rules.ts):
 * each URL at its file (`/api/posts` at `/api/posts/index.json`, a page at `/x/index.html`), a canonical
 * query at its `_query` file (a query with no file is a 404 on API paths, ignored elsewhere), `_headers`'
 * headers and types, `_redirects`' redirects, and 404.html.
 */
export function staticNginxConf(rules: StaticHostRules, root: string, listen: string): string {
  const located = rules.located.map(
    (b) =>
      `    location ${b.prefix ? '^~ ' : '= '}${b.path} {\n${b.type ? `      types { }\n      default_type ${quote(b.type)};\n` : ''}${addHeaders([...rules.all, ...b.headers], '      ')}\n      try_files ${tries(STATIC_TRIES.page)} =404;\n    }`,
  );
  const redirects = rules.redirects.map(({ from, to, status, prefix }) =>
    prefix ? `    rewrite ^${from}(.*)$ ${to.replace(':splat', '$1')} ${status === 301 ? 'permanent' : 'redirect'};` : `    location = ${from} { return ${status} ${to}; }`,
  );
  return `# Written by \`npm run build -- --target static\`: dist/static on a plain nginx, no Node behind it.
# Run: nginx -p dist/static-hosts -c nginx.conf (docs/deploy-static.md); on a server of your own, set root.
${NGINX_RUN}
  types {
${rules.types.map(([ext, type]) => `    ${quote(type)} ${ext};`).join('\n')}
  }
  default_type application/octet-stream;
  gzip_static on;
  gzip_vary on;
  # A query's answer is at {path}/_query/{canonical query}.json; a path's default answer at its index file.
  map $args $folio_query {
    "" /-;
    ${quote(`~${STATIC_TRIES.fileless}`)} /-;
    default ${tries([STATIC_TRIES.query])};
  }
  map $args $folio_default {
    "" ${tries([STATIC_TRIES.default])};
    default /-;
  }

  server {
    listen ${listen};
    root ${root};
    error_page 404 /404.html;
${addHeaders(rules.all, '    ')}
${redirects.join('\n')}

    location / {
${addHeaders(rules.all, '      ')}
      try_files ${tries(STATIC_TRIES.page)} =404;
    }
    # Pages and documents ignore a query string; API answers exist for canonical queries only.
    location ~ ${STATIC_API.source.replace(/\\\//g, '/')} {
${addHeaders(rules.all, '      ')}
      try_files ${tries(STATIC_TRIES.api)} =404;
    }
${located.join('\n')}
  }
}
`;
}
