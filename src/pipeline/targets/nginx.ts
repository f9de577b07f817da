import { existsSync } from 'node:fs';
import { CORS_HEADERS, ALLOW_HEADERS, ALLOW_METHODS } from '../../app/policies/cors.ts';
import { SECURITY_HEADERS } from '../../app/policies/security.ts';
import { FRONT_ROOT } from './front-copy.ts';
import { IMMUTABLE_FOLDERS, MALFORMED_QUERY, NODE_AWAY, NEGOTIATED_KEY, URL_EXTENSION, type FrontOptions, type FrontRules } from './front-files.ts';

/** Debian's brotli_static (libnginx-mod-http-brotli-static): loaded when present where the build runs. */
export const BROTLI_STATIC = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

/**
 * The start of an nginx.conf run with `-p <folder>`: its pid, log and temporary files in that folder
 * (never the system's), and the http block's plain-file settings, up to its own directives.
 */
export const NGINX_RUN = `worker_processes auto;
pcre_jit on;
pid nginx.pid;
error_log logs/error.log warn;
events { worker_connections 4096; }

http {
  access_log off;
  server_tokens off;
  client_body_temp_path tmp/body;
  proxy_temp_path tmp/proxy;
  fastcgi_temp_path tmp/fastcgi;
  uwsgi_temp_path tmp/uwsgi;
  scgi_temp_path tmp/scgi;
  sendfile on;
  tcp_nopush on;
  charset off;`;

export const quote = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;
const headerLines = (headers: Record<string, string>, indent: string) => Object.entries(headers).map(([k, v]) => `${indent}add_header ${k} ${quote(v)} always;`).join('\n');

/** A location serving stored files: its Cache-Control and Vary, what try_files tries, and whether it decides what is served here. */
interface FilesLocation {
  at: string;
  cache: string;
  vary: string;
  tries: string;
  guarded: boolean;
}

function filesLocation({ at, cache, vary, tries, guarded }: FilesLocation, policy: Record<string, string>): string {
  const guard = `      if ($request_method = OPTIONS) {
${headerLines({ ...policy, 'access-control-allow-methods': ALLOW_METHODS, 'access-control-allow-headers': ALLOW_HEADERS, 'access-control-max-age': '86400' }, '        ')}
        return 204;
      }
      error_page 418 = @node;
      if ($folio_static = 0) {
        return 418;
      }
`;
  return `    location ${at} {
${guarded ? guard : ''}${headerLines(policy, '      ')}
      add_header cache-control ${cache} always;
${vary ? `      add_header vary ${vary};\n` : ''}      try_files ${tries};
    }
`;
}

/**
 * The locations of the stored files. A page (what readers mostly ask for) is one lookup with its
 * headers known: `/` tries the URL with the pages' key, then @files the keys the URL's extension
 * allows; the immutable folders the same keys, with their own caching.
 */
function filesLocations(rules: FrontRules, depth: number): FilesLocation[] {
  const byExtension = [...Array.from({ length: depth }, (_, i) => `$folio_base.$folio_try${i + 1}`), '@node'].join(' ');
  const page = rules.extensions.find(([ext]) => ext === '')?.[1][0];
  const pageCache = rules.cacheByKey.find(([key]) => key === page)?.[1];
  const rest = { cache: '$folio_cache', vary: '$folio_vary', tries: byExtension };
  return [
    ...(page && pageCache ? [{ at: '/', cache: quote(pageCache), vary: page.startsWith(NEGOTIATED_KEY) ? 'Accept' : '', tries: `$uri.${page} @files`, guarded: true }, { at: '@files', ...rest, guarded: false }] : [{ at: '/', ...rest, guarded: true }]),
    ...(rules.immutable ? IMMUTABLE_FOLDERS.map((folder) => ({ at: `^~ ${folder}`, ...rest, cache: quote(rules.immutable!), guarded: true })) : []),
  ];
}

/**
 * nginx.conf for `nginx -p dist/nginx -c nginx.conf`: published files from the `site` link (front-files.ts),
 * precompressed br/gzip, the exact types, CORS and security headers on every status; the preflight
 * answered here; everything else (JSON, queries, negotiation by Accept, Authorization, ranges, other
 * methods, unknown paths) passed to Node, whose CORS and security headers are replaced by the same.
 */
export function nginxConf(rules: FrontRules, options: FrontOptions, brotli = existsSync(BROTLI_STATIC)): string {
  const policy = { ...CORS_HEADERS, ...SECURITY_HEADERS };
  // Column i: the i-th key to try for each extension.
  const depth = Math.max(...rules.extensions.map(([, keys]) => keys.length));
  const tries = Array.from({ length: depth }, (_, i) => rules.extensions.filter(([, keys]) => keys[i]).map(([ext, keys]) => [ext, keys[i]!] as const));
  return `# Written by \`npm run build -- --target nginx\`; run: nginx -p dist/nginx -c nginx.conf
# Serves the published files in ${FRONT_ROOT}/ (a link the build switches: no reload for content) and passes
# everything else to \`npm run serve\` at ${options.upstream} (start it with TRUST_PROXY=1). docs/deploy-fronts.md.
${brotli ? `load_module ${BROTLI_STATIC};` : '# brotli_static: apt-get install libnginx-mod-http-brotli-static, then build again (gzip only meanwhile)'}
${NGINX_RUN}
  keepalive_requests 10000;
  # The stored names' keys give each file its exact type.
  types {
${rules.types.map(([key, type]) => `    ${quote(type)} ${key};`).join('\n')}
  }
  default_type application/octet-stream;
  gzip_static on;
  gzip_vary on;
${brotli ? '  brotli_static on;\n' : ''}  # A link switched under nginx is followed at the next open; misses (Node's paths) are cached too.
  open_file_cache max=20000 inactive=60s;
  open_file_cache_valid 1s;
  open_file_cache_errors on;

  # Served here: GET and HEAD without Authorization (the bearer 401 is Node's, rate-counted), without
  # Range (Node's 206/416), with an Accept that does not ask for JSON or Markdown (Node negotiates),
  # and a query string Node would not refuse (malformed percent-encoding is its 400). Each map names
  # the next as its value: a request stops at the first that says no, and no string is put together.
  map "$request_method:$http_authorization:$http_range" $folio_static {
    "GET::" $folio_accept;
    "HEAD::" $folio_accept;
    default 0;
  }
  map $http_accept $folio_accept {
    "~*json|markdown" 0;
    default $folio_args;
  }
  map $args $folio_args {
    "" 1;
    ${quote(`~${MALFORMED_QUERY.source}`)} 0;
    default 1;
  }
  # The file for a URL: the URL (a folder's with a dot: /fr/ is /fr/..html) and one of the keys its
  # extension allows (front-files.ts); a key that no file has ("-") is a miss, and the request goes to Node.
  map $uri $folio_base {
    "~^(?<folio_folder>.*/)$" "$folio_folder.";
    default $uri;
  }
  map $uri $folio_ext {
    ${quote(`~${URL_EXTENSION.source.replace('(', '(?<folio_e>')}`)} $folio_e;
    default "";
  }
${tries.map((column, i) => `  map $folio_ext $folio_try${i + 1} {\n${column.map(([ext, key]) => `    ${quote(ext)} ${key};`).join('\n')}\n    default -;\n  }`).join('\n')}
  # The served file's key, read by hash as a host name's last label (no regular expression), gives
  # its caching and Vary; files in the immutable folders get theirs from their location.
  map $uri $folio_key {
    hostnames;
${rules.types.map(([key]) => `    *.${key} ${key};`).join('\n')}
  }
  map $folio_key $folio_cache {
${rules.cacheByKey.map(([k, cc]) => `    ${k} ${quote(cc)};`).join('\n')}
  }
  map $folio_key $folio_vary {
${rules.types.filter(([key]) => key.startsWith(NEGOTIATED_KEY)).map(([key]) => `    ${key} Accept;\n`).join('')}    default "";
  }

  upstream folio {
    server ${options.upstream};
    keepalive 64;
  }

  server {
    listen ${options.listen} reuseport;
    root ${FRONT_ROOT};
    client_max_body_size 0;
    # A request passed to Node by an error_page (the 418 of the files' locations) still gets @away.
    recursive_error_pages on;
    # nginx's own answers (a 502 while Node is down) carry the policy headers too.
${headerLines(policy, '    ')}

${filesLocations(rules, depth).map((l) => filesLocation(l, policy)).join('\n')}
    location @node {
      proxy_pass http://folio;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # Streams (search, /ask, MCP) pass as they are written; bodies are Node's to limit.
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
${Object.keys(policy).map((k) => `      proxy_hide_header ${k};`).join('\n')}
      # Node not answering: JSON, as Node's own errors (front-files.ts NODE_AWAY).
      error_page 502 503 504 = @away;
    }

    location @away {
${headerLines({ ...policy, 'cache-control': NODE_AWAY.headers['cache-control'], 'retry-after': NODE_AWAY.headers['retry-after'] }, '      ')}
      default_type ${quote(NODE_AWAY.headers['content-type'])};
      return ${NODE_AWAY.status} ${quote(NODE_AWAY.body)};
    }
  }
}
`;
}
