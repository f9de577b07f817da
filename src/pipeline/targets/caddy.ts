import { ALLOW_HEADERS, ALLOW_METHODS, CORS_HEADERS } from '../../app/policies/cors.ts';
import { SECURITY_HEADERS } from '../../app/policies/security.ts';
import { IMMUTABLE, MALFORMED_QUERY, NEGOTIATED_KEY, NODE_AWAY, type FrontOptions, type FrontRules } from './front-files.ts';

// Caddyfile: in "..." only \" is an escape; in `...` nothing is (regular expressions go there).
export const caddyQuote = (s: string) => `"${s.replace(/"/g, '\\"')}"`;
const raw = (s: string) => `\`${s}\``;
export const caddyHeaders = (headers: Record<string, string>, indent: string) => `${indent}header {\n${Object.entries(headers).map(([k, v]) => `${indent}\t${k} ${caddyQuote(v)}`).join('\n')}\n${indent}}`;

/**
 * A Caddyfile for `caddy run --config dist/caddy/Caddyfile`: what nginx.ts does, in Caddy's terms
 * (a `file` matcher with try_files over the stored names, `file_server` with its precompressed
 * variants, types and caching by the stored name, `reverse_proxy` for the rest). `root` is the
 * folder's absolute path, as the configuration may be run from anywhere.
 */
export function caddyfile(rules: FrontRules, options: FrontOptions, root: string): string {
  const policy = { ...CORS_HEADERS, ...SECURITY_HEADERS };
  const [host, port] = [options.listen.slice(0, options.listen.lastIndexOf(':')), options.listen.slice(options.listen.lastIndexOf(':') + 1)];
  const types = rules.types.map(([key, type], i) => [`@type${i}`, `path *.${key}`, type] as const);
  // Written last first: the first rule that matches is set last, and stands (as in nginx's map).
  const cache: [RegExp, string][] = [...(rules.immutable ? [[IMMUTABLE, rules.immutable] as [RegExp, string]] : []), ...rules.cacheByKey.map(([key, cc]): [RegExp, string] => [new RegExp(`\\.${key}$`), cc])];
  const caches = cache.map(([re, cc], i) => [`@cache${i}`, `path_regexp ${raw(re.source)}`, cc] as const);
  return `# Written by \`npm run build -- --target caddy\`; run: caddy run --config dist/caddy/Caddyfile --adapter caddyfile
# Serves the published files in ${root} (a link the build switches: no reload for content) and passes
# everything else to \`npm run serve\` at ${options.upstream} (start it with TRUST_PROXY=1). docs/deploy-fronts.md.
{
\tadmin off
\tauto_https off
}

http://${host || 'localhost'}:${port} {
${host ? `\tbind ${host}\n` : ''}\troot * ${root}

\t# A folder's URL (/fr/) is stored at /fr/..html (front-files.ts frontBase).
\tmap {path} {folio_base} {
\t\t~^(.*/)$ "\${1}."
\t\tdefault {path}
\t}

\t@preflight method OPTIONS
\thandle @preflight {
${caddyHeaders({ ...policy, 'access-control-allow-methods': ALLOW_METHODS, 'access-control-allow-headers': ALLOW_HEADERS, 'access-control-max-age': '86400' }, '\t\t')}
\t\trespond 204
\t}

\t# Served here: GET and HEAD without Authorization (the bearer 401 is Node's, rate-counted), without
\t# Range (Node's 206/416), with an Accept that does not ask for JSON or Markdown (Node negotiates),
\t# a query string Node would not refuse, and a stored file for the URL (front-files.ts).
\t@static {
\t\tmethod GET HEAD
\t\tnot header Authorization *
\t\tnot header Range *
\t\tnot header_regexp Accept (?i)json|markdown
\t\tnot expression ${raw(`{query}.matches("${MALFORMED_QUERY.source}")`)}
\t\tfile {
\t\t\ttry_files ${rules.types.map(([key]) => `{folio_base}.${key}`).join(' ')}
\t\t}
\t}
${[...types, ...caches].map(([name, matcher]) => `\t${name} ${matcher}`).join('\n')}
\t# Vary as Node sends it: Accept on a negotiated URL, Accept-Encoding on a file with br/gzip variants,
\t# whichever coding is sent (file_server would name it only when it sends a coded one). Deferred
\t# headers are set innermost first: the first written (the most specific) is set last and stands.
\t@negotiated path_regexp \\.${NEGOTIATED_KEY}[a-z0-9]+$
\t@coded file {
\t\ttry_files {path}.gz {path}.br
\t}
\t@negotiatedCoded {
\t\tpath_regexp \\.${NEGOTIATED_KEY}[a-z0-9]+$
\t\tfile {
\t\t\ttry_files {path}.gz {path}.br
\t\t}
\t}
\thandle @static {
\t\troute {
\t\t\trewrite {http.matchers.file.relative}
${caddyHeaders(policy, '\t\t\t')}
${types.map(([name, , type]) => `\t\t\theader ${name} Content-Type ${caddyQuote(type)}`).join('\n')}
${[...caches].reverse().map(([name, , cc]) => `\t\t\theader ${name} Cache-Control ${caddyQuote(cc)}`).join('\n')}
${[['@negotiatedCoded', 'Accept, Accept-Encoding'], ['@coded', 'Accept-Encoding'], ['@negotiated', 'Accept']].map(([m, v]) => `\t\t\theader ${m} {\n\t\t\t\tVary ${caddyQuote(v!)}\n\t\t\t\tdefer\n\t\t\t}`).join('\n')}
\t\t\tfile_server {
\t\t\t\tprecompressed br gzip
\t\t\t}
\t\t}
\t}

\thandle {
\t\treverse_proxy ${options.upstream} {
\t\t\t# Streams (search, /ask, MCP) pass as they are written.
\t\t\tflush_interval -1
\t\t}
\t}

\t# Caddy's own answers (a 502 while Node is down) carry the policy headers too, as nginx's do.
\thandle_errors {
${caddyHeaders(policy, '\t\t')}
\t\t# Node not answering: JSON, as Node's own errors (front-files.ts NODE_AWAY).
\t\t@away expression ${raw('{err.status_code} in [502, 503, 504]')}
\t\thandle @away {
${caddyHeaders(NODE_AWAY.headers, '\t\t\t')}
\t\t\trespond ${raw(NODE_AWAY.body)} ${NODE_AWAY.status}
\t\t}
\t\trespond "{err.status_code} {err.status_text}" {err.status_code}
\t}
}
`;
}
