import { createHash } from 'node:crypto';
import type { Core } from '../core/index.ts';
import { LANGUAGE_CODES } from '../core/languages.ts';
import { absolute } from '../core/urls.ts';

/**
 * The agent skills: Markdown files written at build with an index of their sha256 digests
 * (computed from the very bytes written), served as static files under /.well-known/agent-skills/.
 */
const url = (core: Core, path = '') => absolute(core.catalog, `${core.catalog.base}${path}`);

/** The skills, as the Markdown files an agent loads (name and description in front matter). */
export function skills(core: Core): { name: string; description: string; text: string }[] {
  const { site } = core.catalog;
  const u = (p: string) => url(core, p);
  const make = (name: string, description: string, body: string) => ({ name, description, text: `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}` });
  return [
    make(
      'read-essays',
      `Read and list the essays of ${site.name} in 14 languages through its public JSON and Markdown API.`,
      `# Read essays from ${site.name}

1. List posts: \`GET ${u('/api/posts')}?lang=<code>&per_page=10&page=1\`. Codes: ${LANGUAGE_CODES.join(', ')}.
2. Read one: \`GET ${u('/api/posts/<slug>')}?lang=<code>\`; add \`fallback=en\` to get English when the translation is missing or stale (otherwise 404 with \`fallback_url\`).
3. Markdown: \`${u('/<slug>.md')}\` or \`Accept: text/markdown\` on the post URL (not on Cloudflare Workers by default, where pages are static files).
4. Cite: every body carries \`attribution\`; link the post \`url\`.
5. Many at once: \`POST ${u('/api/batch')}\` with \`{"requests": [{"path": "/api/posts/<slug>?lang=fr"}]}\`.

No key is needed; never send an Authorization header. Full reference: ${u('/openapi.json')}.
`,
    ),
    make(
      'search-essays',
      `Search the essays of ${site.name} by words or by question, in any of 14 languages.`,
      `# Search essays from ${site.name}

- Words: \`GET ${u('/api/search')}?q=<words>&lang=<code>\` returns summaries with \`snippet\` and \`missing_words\`, ranked (posts holding every word first, then those holding most: \`missing_words\` names the query's words a result lacks, [] when it has them all; then the words themselves, then their other forms, then typos; within each by BM25F relevance: title and summary above body, more mentions in a shorter post first, rarer words weigh more); \`"quoted words"\` match as a phrase, exactly; \`total\` counts all matches; \`suggestion\` is the query with a word no post holds replaced by the nearest one (did you mean), else null.
- Streaming: \`GET ${u('/api/stream/search')}?q=<words>\` sends signed SSE events \`status\`, \`result\`, \`done\` (with \`total\` and \`suggestion\`).
- Questions: \`POST ${u('/ask')}\` with \`{"query": "<question>"}\` answers \`{status, query, site, response: [{url, name, description, date}]}\`.
- MCP: the \`search_posts\` tool at \`${u('/mcp')}\` returns the same body as \`/api/search\`.
`,
    ),
  ];
}

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The skills index (Agent Skills discovery): each skill's URL and the sha256 of its bytes. */
export function skillsIndex(core: Core) {
  return {
    $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
    skills: skills(core).map((s) => ({
      name: s.name,
      type: 'skill-md',
      description: s.description,
      url: url(core, `/.well-known/agent-skills/${s.name}/SKILL.md`),
      digest: `sha256:${sha256(s.text)}`,
      sha256: sha256(s.text),
    })),
  };
}
