/**
 * JSON Feed 1.1 as a JSON Schema, written from the specification (https://jsonfeed.org/version/1.1),
 * independently of Folio's emitter: the required members, their types, URLs and RFC 3339 dates,
 * an item's content_html or content_text, an author with at least one member.
 */
const url = { type: 'string', format: 'uri' };
const author = {
  type: 'object',
  properties: { name: { type: 'string' }, url, avatar: url },
  anyOf: [{ required: ['name'] }, { required: ['url'] }, { required: ['avatar'] }],
};

export const JSON_FEED_1_1 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['version', 'title', 'items'],
  properties: {
    version: { const: 'https://jsonfeed.org/version/1.1' },
    title: { type: 'string' },
    home_page_url: url,
    feed_url: url,
    description: { type: 'string' },
    user_comment: { type: 'string' },
    next_url: url,
    icon: url,
    favicon: url,
    authors: { type: 'array', items: author },
    language: { type: 'string' },
    expired: { type: 'boolean' },
    hubs: { type: 'array', items: { type: 'object', required: ['type', 'url'], properties: { type: { type: 'string' }, url } } },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string' },
          url,
          external_url: url,
          title: { type: 'string' },
          content_html: { type: 'string' },
          content_text: { type: 'string' },
          summary: { type: 'string' },
          image: url,
          banner_image: url,
          date_published: { type: 'string', format: 'date-time' },
          date_modified: { type: 'string', format: 'date-time' },
          authors: { type: 'array', items: author },
          tags: { type: 'array', items: { type: 'string' } },
          language: { type: 'string' },
          attachments: {
            type: 'array',
            items: {
              type: 'object',
              required: ['url', 'mime_type'],
              properties: { url, mime_type: { type: 'string' }, title: { type: 'string' }, size_in_bytes: { type: 'number' }, duration_in_seconds: { type: 'number' } },
            },
          },
        },
        anyOf: [{ required: ['content_html'] }, { required: ['content_text'] }],
      },
    },
  },
};
