import { language } from '../../core/languages.ts';
import { escapeHtml } from '../../site/html.ts';
import { unescapeText } from '../inline-markup.ts';
import type { IndexRow, ReviewSegment, ReviewView, SegmentState } from './review.ts';

/**
 * The review pages as plain HTML (no framework): the index of every translation with its state,
 * and one translation's segments side by side, each with a labelled text box and an Approve
 * button in reading order; review.js posts the approvals.
 */

const head = (title: string, token?: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${token ? `<meta name="review-token" content="${escapeHtml(token)}">\n` : ''}<title>${escapeHtml(title)} · Folio review</title>
<link rel="stylesheet" href="/_review/review.css">
${token ? '<script src="/_review/review.js" defer></script>\n' : ''}</head>
<body>
`;

/** What each state is called on the page (never told by colour alone). */
export const STATE_LABEL: Record<SegmentState, string> = {
  changed: 'Changed: the English was edited since this was written',
  review: "Needs review: a person's text kept under an edited English",
  machine: 'Machine translation',
  person: '✓ Approved: a person’s',
};

export function indexPage(rows: readonly IndexRow[]): string {
  const langs = rows[0]?.languages.map((l) => l.lang) ?? [];
  const cell = (row: IndexRow, l: IndexRow['languages'][number]) => {
    const name = language(l.lang).name;
    if (l.state === 'missing') return `<td class="missing"><span aria-label="${escapeHtml(name)}: missing">·</span></td>`;
    // The words of `translations status`, and whether a person verified it.
    const state = l.changed !== undefined ? `stale ${l.changed}` : l.review ? `review ${l.review}` : l.state;
    const text = l.verified ? `${state}, verified` : state;
    return `<td class="${escapeHtml(l.state)}${l.verified ? ' verified' : ''}"><a href="/_review/${row.slug}/${l.lang}" aria-label="${escapeHtml(`${row.title}, ${name}: ${text}`)}">${escapeHtml(text)}</a></td>`;
  };
  return `${head('Translations')}<header>
<h1>Review translations</h1>
<p>Every post and page with the state of each translation. Open one to read the English and the translation side by side, edit, and approve segment by segment.</p>
</header>
<main id="main">
<table>
<caption>Translations by post and language</caption>
<thead><tr><th scope="col">Post or page</th>${langs.map((l) => `<th scope="col"><abbr title="${escapeHtml(language(l).name)}">${l}</abbr></th>`).join('')}</tr></thead>
<tbody>
${rows.map((row) => `<tr><th scope="row">${escapeHtml(row.title)} <span class="slug">${row.slug}${row.kind === 'page' ? ' (page)' : ''}</span></th>${row.languages.map((l) => cell(row, l)).join('')}</tr>`).join('\n')}
</tbody>
</table>
</main>
</body>
</html>
`;
}

/** Tagged text as HTML: emphasis as itself, a link's words marked with its number, a kept placeholder as a numbered chip. */
function taggedHtml(tagged: string, slots: readonly string[]): string {
  return tagged
    .split(/(<[^>]*>)/)
    .map((part, i) => {
      if (i % 2 === 0) return escapeHtml(unescapeText(part));
      const m = /^<(\/?)(em|strong|del|a|x)(?:\s+i="(\d+)")?\s*\/?>$/.exec(part);
      if (!m) return escapeHtml(part);
      const [, closing, tag, n] = m;
      if (tag === 'x') return closing ? '' : `<code class="slot" title="${escapeHtml(slots[Number(n) - 1] ?? '')}">x${n}</code>`;
      if (tag === 'a') return closing ? '</span>' : `<span class="link" title="${escapeHtml(slots[Number(n) - 1] ?? '')}"><sup class="slot-number">a${n}</sup>`;
      return `<${closing}${tag}>`;
    })
    .join('');
}

const rowsFor = (text: string) => Math.min(12, Math.max(2, Math.ceil(text.length / 60)));

function segmentHtml(s: ReviewSegment, i: number, lang: string): string {
  const id = `seg-${i + 1}`;
  const l = language(lang);
  const slots = s.slots.length
    ? `<ul class="slots" aria-label="Kept as written">${s.slots.map((label, k) => `<li><code>${/^link/.test(label) ? 'a' : 'x'}${k + 1}</code> ${escapeHtml(label)}</li>`).join('')}</ul>`
    : '';
  return `<li class="segment state-${s.state}" id="${id}" data-index="${i}">
<div class="english">
<h2 class="where" id="${id}-where">${i + 1}. ${escapeHtml(s.where)}</h2>
<p class="source" id="${id}-en" lang="en" dir="ltr">${taggedHtml(s.english, s.slots)}</p>
${slots}
</div>
<div class="translation">
<p class="state" id="${id}-state">${escapeHtml(STATE_LABEL[s.state])}${s.engine ? ` (${escapeHtml(s.engine)})` : ''}</p>
<label for="${id}-text">${escapeHtml(l.name)} translation of segment ${i + 1}</label>
<textarea id="${id}-text" lang="${l.html_lang}" dir="${l.dir}" rows="${rowsFor(s.text)}" spellcheck="true" aria-describedby="${id}-en ${id}-state ${id}-message">${escapeHtml(s.text)}</textarea>
<button type="button" class="approve" aria-describedby="${id}-where">Approve</button>
<p class="message" id="${id}-message" role="status"></p>
</div>
</li>`;
}

export function summaryText(view: ReviewView): string {
  const approved = view.segments.filter((s) => s.state === 'person').length;
  const verified = view.verified ? `Verified${view.verifiedBy ? ` by ${view.verifiedBy}` : ''}${view.verifiedAt ? ` on ${view.verifiedAt}` : ''}.` : 'Not verified yet.';
  return `${approved} of ${view.segments.length} segments approved. ${verified}`;
}

export function reviewPage(view: ReviewView, token: string, defaultName: string): string {
  const l = language(view.lang);
  const body = view.problem
    ? `<p class="problem" role="alert">${escapeHtml(view.file)} cannot be reviewed here: ${escapeHtml(view.problem)}.</p>`
    : `<ol class="segments">\n${view.segments.map((s, i) => segmentHtml(s, i, view.lang)).join('\n')}\n</ol>`;
  return `${head(`${view.title} (${l.name})`, token)}<a class="skip" href="#seg-1">Skip to the first segment</a>
<header>
<p><a href="/_review/">All translations</a></p>
<h1>Review: <span lang="${l.html_lang}" dir="${l.dir}">${escapeHtml(view.title)}</span> (${escapeHtml(l.name)})</h1>
<p class="file">${escapeHtml(view.file)}</p>
<p id="summary" tabindex="-1" role="status">${escapeHtml(summaryText(view))}</p>
${view.refusal ? `<p class="refusal">Stale: ${escapeHtml(view.refusal.replace(/^\S+ is stale /, ''))}. Segments can be approved; the file is verified once it is up to date.</p>\n` : ''}<p class="reviewer"><label for="reviewer">Your name, recorded as the reviewer</label>
<input id="reviewer" name="reviewer" autocomplete="name" required value="${escapeHtml(defaultName)}" aria-describedby="reviewer-note">
<span id="reviewer-note">Remembered in this browser; the default is <code>git config user.name</code>.</span></p>
<p id="keys">Edit a translation in its box, then <kbd>Ctrl</kbd>+<kbd>Enter</kbd> (<kbd>⌘</kbd>+<kbd>Enter</kbd> on a Mac) approves it and moves to the next segment to review; <kbd>Tab</kbd> goes from a box to its Approve button, then to the next box. The tags <code>&lt;a i="1"&gt;…&lt;/a&gt;</code> (a link) and <code>&lt;x i="2"/&gt;</code> (code, an image, a kept term) stand for what is kept as written: keep each once.</p>
<ul class="legend">${(Object.keys(STATE_LABEL) as SegmentState[]).map((k) => `<li class="state-${k}">${escapeHtml(STATE_LABEL[k])}</li>`).join('')}</ul>
</header>
<main id="main" data-slug="${view.slug}" data-lang="${view.lang}" data-checksum="${view.checksum}">
${body}
</main>
</body>
</html>
`;
}
