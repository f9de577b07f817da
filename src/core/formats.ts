/** Representations of a post, as data (Hugo's output formats): negotiation and emitters read this. */
export interface Format {
  name: 'html' | 'json' | 'markdown' | 'event-stream' | 'text';
  mediaType: string;
  contentType: string;
}

export const FORMATS = {
  html: { name: 'html', mediaType: 'text/html', contentType: 'text/html; charset=utf-8' },
  json: { name: 'json', mediaType: 'application/json', contentType: 'application/json; charset=utf-8' },
  markdown: { name: 'markdown', mediaType: 'text/markdown', contentType: 'text/markdown; charset=utf-8' },
  eventStream: { name: 'event-stream', mediaType: 'text/event-stream', contentType: 'text/event-stream; charset=utf-8' },
  text: { name: 'text', mediaType: 'text/plain', contentType: 'text/plain; charset=utf-8' },
} as const satisfies Record<string, Format>;

/**
 * The feeds of each language, side by side: the same items from the same core, in three formats.
 * The emitter, the pages' alternate links, the manifest's types and the docs read this table.
 */
export interface Feed {
  name: 'rss' | 'atom' | 'json';
  /** The file name in the language's folder: /feed.xml, /fr/atom.xml ... */
  file: string;
  mediaType: string;
  label: string;
}

export const FEEDS = [
  { name: 'rss', file: 'feed.xml', mediaType: 'application/rss+xml', label: 'RSS 2.0' },
  { name: 'atom', file: 'atom.xml', mediaType: 'application/atom+xml', label: 'Atom' },
  { name: 'json', file: 'feed.json', mediaType: 'application/feed+json', label: 'JSON Feed 1.1' },
] as const satisfies readonly Feed[];

export type FeedFile = (typeof FEEDS)[number]['file'];
