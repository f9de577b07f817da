import type { Single } from './posts.ts';
import type { PageSingle } from './pages.ts';

/**
 * The Markdown representation of a post (negotiated and `.md` twin): a YAML front matter
 * block describing the post, the title as H1, then the body.
 */
export function markdownDocument(single: Single | PageSingle): string {
  // A page has no date, author or terms: those lines are left out.
  const data: Partial<Single['data']> & PageSingle['data'] = single.data;
  const fields: [string, unknown][] = [
    ['title', data.title],
    ['slug', data.slug],
    ['language', data.language],
    ['url', data.url],
    ['english_url', data.english_url],
    ['date', data.date],
    ['modified', data.modified],
    ['author', data.author],
    ['summary', data.summary],
    ['categories', data.categories],
    ['tags', data.tags],
    ['reading_time', data.reading_time],
    ['translation', data.translation],
  ];
  const yaml = fields
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join('\n');
  return `---\n${yaml}\n---\n\n# ${data.title}\n\n${data.content_markdown}\n`;
}
