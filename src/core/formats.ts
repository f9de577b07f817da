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
