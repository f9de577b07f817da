import { LANGUAGES } from '../../core/languages.ts';
import { FEEDS, type Feed } from '../../core/formats.ts';
import { paths } from '../../core/urls.ts';
import type { Core } from '../../core/index.ts';
import type { Publisher } from './publisher.ts';
import { feedData, type FeedData } from './feed-data.ts';
import { atom, jsonFeed, rss } from './feed-formats.ts';

const SERIALISE: Record<Feed['name'], (feed: FeedData) => string> = { rss, atom, json: jsonFeed };

/** RSS 2.0, Atom and JSON Feed 1.1 per language, holding only posts available in it, newest first. */
export async function emitFeeds(core: Core, out: Publisher): Promise<void> {
  for (const lang of LANGUAGES) {
    const feed = await feedData(core, lang);
    for (const f of FEEDS) await out.write(paths.feed(core.catalog, lang.code, f.file), SERIALISE[f.name](feed));
  }
}
