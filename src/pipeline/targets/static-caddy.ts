import { caddyQuote, caddyHeaders } from './caddy.ts';
import { STATIC_API, STATIC_TRIES, type StaticHostRules } from './static-host-rules.ts';

const NAMES: Record<string, string> = { '{query}': '{folio_query}', '{default}': '{folio_default}', '{uri}': '{path}', '{args}': '{query}' };
const tries = (list: string[]) => list.map((t) => t.replace(/\{[a-z]+\}/g, (p) => NAMES[p]!)).join(' ');
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first file found of `list` served with the type its name gives, none a 404 (handle_errors serves 404.html). */
const serve = (list: string[], indent: string) => `${indent}@found file {
${indent}\ttry_files ${tries(list)}
${indent}}
${indent}handle @found {
${indent}\troute {
${indent}\t\trewrite * {file_match.relative}
${indent}\t\theader Content-Type {folio_type}
${indent}\t\tfile_server {
${indent}\t\t\tprecompressed br gzip
${indent}\t\t}
${indent}\t}
${indent}}
${indent}handle {
${indent}\terror 404
${indent}}`;

/**
 * A Caddyfile serving `dist/static` as a plain static host, with no Node behind it: what
 * static-nginx.ts writes for nginx, from the same rules (static-host-rules.ts), in Caddy's terms.
 * Types go by the served file's name (a folder's by its index.html), `_headers`' blocks by the
 * request's path, as nginx's locations do.
 */
export function staticCaddyfile(rules: StaticHostRules, root: string, listen: string): string {
  const at = listen.lastIndexOf(':');
  const [host, port] = [listen.slice(0, at), listen.slice(at + 1)];
  const html = rules.types.find(([ext]) => ext === 'html')?.[1];
  const typed = rules.located.filter((b) => b.type);
  const inApi = rules.located.filter((b) => STATIC_API.test(b.path)).map((b) => (b.prefix ? `${b.path}*` : b.path));
  const redirects = rules.redirects.map(({ from, to, status, prefix }, i) =>
    prefix ? `\t@redirect${i} path_regexp redirect${i} ^${escapeRe(from)}(.*)$\n\tredir @redirect${i} ${to.replace(':splat', `{re.redirect${i}.1}`)} ${status}` : `\tredir ${from} ${to} ${status}`,
  );
  return `# Written by \`npm run build -- --target static\`: dist/static on a plain Caddy, no Node behind it.
# Run: caddy run --config dist/static-hosts/Caddyfile --adapter caddyfile (docs/deploy-static.md); on a server of your own, set root.
{
\tadmin off
\tauto_https off
}

http://${host || 'localhost'}:${port} {
${host ? `\tbind ${host}\n` : ''}\troot * ${root}
${caddyHeaders(Object.fromEntries(rules.all), '\t')}
${rules.located.filter((b) => b.headers.length).map((b) => `\theader ${b.prefix ? `${b.path}*` : b.path} {\n${b.headers.map(([k, v]) => `\t\t${k} ${caddyQuote(v)}`).join('\n')}\n\t}`).join('\n')}
${redirects.join('\n')}

\t# A query's answer is at {path}/_query/{canonical query}.json; a path's default answer at its index file.
\tmap {query} {folio_query} {folio_default} {
\t\t"" /- ${tries([STATIC_TRIES.default])}
\t\t~${STATIC_TRIES.fileless} /- /-
\t\tdefault ${tries([STATIC_TRIES.query])} /-
\t}
\t# The served file's type: _headers' where it gives one, else by its extension.
\tmap {path} {folio_type} {
${typed.map((b) => `\t\t${b.prefix ? caddyQuote(`~^${escapeRe(b.path)}`) : caddyQuote(b.path)} ${caddyQuote(b.type!)}`).join('\n')}
${html ? `\t\t~/$ ${caddyQuote(html)}\n` : ''}${rules.types.map(([ext, type]) => `\t\t~\\.${ext}$ ${caddyQuote(type)}`).join('\n')}
\t\tdefault application/octet-stream
\t}

\t# Pages and documents ignore a query string; API answers exist for canonical queries only.
\t@api {
\t\tpath_regexp ${STATIC_API.source.replace(/\\\//g, '/')}
${inApi.length ? `\t\tnot path ${inApi.join(' ')}\n` : ''}\t}
\thandle @api {
${serve(STATIC_TRIES.api, '\t\t')}
\t}
\thandle {
${serve(STATIC_TRIES.page, '\t\t')}
\t}

\thandle_errors {
${caddyHeaders(Object.fromEntries(rules.all), '\t\t')}
\t\trewrite * /404.html
\t\tfile_server
\t}
}
`;
}
