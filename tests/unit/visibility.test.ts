import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextScheduled, postVisibility, translationVisibility } from '../../src/pipeline/load/visibility.ts';
import { describeNext, earliestScheduled, isDue, scheduledLine } from '../../src/pipeline/live/schedule.ts';
import { withoutDraft } from '../../src/authoring/publish-draft.ts';

const now = Date.parse('2026-05-01T12:00:00Z');

test('a post: published when dated up to now and not a draft; a draft or a later date only in a preview, marked', () => {
  assert.deepEqual(postVisibility({ date: '2026-05-01T12:00:00Z', draft: false }, now, false), { in: true });
  assert.deepEqual(postVisibility({ date: '2020-01-01T00:00:00Z', draft: false }, now, true), { in: true });
  assert.deepEqual(postVisibility({ date: '2026-05-01T12:00:01Z', draft: false }, now, false), { in: false });
  assert.deepEqual(postVisibility({ date: '2026-05-01T12:00:01Z', draft: false }, now, true), { in: true, preview: 'scheduled' });
  assert.deepEqual(postVisibility({ date: '2020-01-01T00:00:00Z', draft: true }, now, false), { in: false });
  // A draft dated later is a draft first: publishing it is what it waits for.
  assert.deepEqual(postVisibility({ date: '2030-01-01T00:00:00Z', draft: true }, now, true), { in: true, preview: 'draft' });
});

test('a translation: a draft one only in a preview', () => {
  assert.deepEqual(translationVisibility({ draft: false }, false), { in: true });
  assert.deepEqual(translationVisibility({ draft: true }, false), { in: false });
  assert.deepEqual(translationVisibility({ draft: true }, true), { in: true, preview: 'draft' });
});

test('the next scheduled post: the earliest dated after now, drafts and due posts aside, ties by slug', () => {
  const posts = [
    { slug: 'due', date: '2026-04-01T00:00:00Z', draft: false },
    { slug: 'later', date: '2026-06-01T00:00:00Z', draft: false },
    { slug: 'b-soon', date: '2026-05-02T00:00:00Z', draft: false },
    { slug: 'a-soon', date: '2026-05-02T00:00:00Z', draft: false },
    { slug: 'draft-sooner', date: '2026-05-01T13:00:00Z', draft: true },
  ];
  assert.deepEqual(nextScheduled(posts, now), { slug: 'a-soon', date: '2026-05-02T00:00:00Z' });
  assert.equal(nextScheduled(posts.slice(0, 1), now), undefined);
  assert.equal(nextScheduled([], now), undefined);
});

test("the build's schedule: the earliest of the roots' lines, due once its time has come, told in one line", () => {
  const out = ['site url http://x', scheduledLine('sandbox', { slug: 's', date: '2026-05-03T00:00:00Z' }), scheduledLine('main', { slug: 'm', date: '2026-05-02T00:00:00Z' })].join('\n');
  const next = earliestScheduled(out);
  assert.deepEqual(next, { root: 'main', slug: 'm', date: '2026-05-02T00:00:00Z' });
  assert.equal(earliestScheduled('site url http://x\n'), undefined);
  assert.equal(isDue(next, now), false);
  assert.equal(isDue(next, Date.parse('2026-05-02T00:00:00Z')), true);
  assert.equal(isDue(undefined, now), false);
  assert.equal(describeNext(next, now), 'next scheduled post: m at 2026-05-02T00:00:00Z (in 12 h); npm start builds again then');
  assert.equal(describeNext(undefined, now), 'scheduled: no post is scheduled');
});

test('publishing clears the front matter\'s draft line only', () => {
  assert.equal(withoutDraft('---\ntitle: "T"\ndraft: true\ndate: 2026-01-01\n---\n\ndraft: true in the body\n'), '---\ntitle: "T"\ndate: 2026-01-01\n---\n\ndraft: true in the body\n');
  assert.equal(withoutDraft('---\ndraft:  true # for now\ntitle: "T"\n---\nx\n'), '---\ntitle: "T"\n---\nx\n');
  assert.equal(withoutDraft('---\ntitle: "T"\ndraft: false\n---\n\ndraft: true\n'), undefined);
  assert.equal(withoutDraft('no front matter\n'), undefined);
});
