import { LANGUAGE_CODES } from '../core/languages.ts';

/**
 * JSON Schemas of every body the service returns, written once in the OpenAPI 3.0 dialect
 * (`nullable`). OpenAPI components, MCP output schemas and the contract tests all read these,
 * so a field added to the core without a schema fails a test instead of drifting.
 * Answers are closed (`additionalProperties: false`): an undocumented field is an error. Request
 * bodies are open: an unknown field is ignored, as an unknown query parameter is (DECISIONS.md).
 */
export type Schema = Record<string, unknown>;

const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
const int = (description?: string, minimum?: number): Schema => ({ type: 'integer', ...(minimum !== undefined ? { minimum } : {}), ...(description ? { description } : {}) });
const bool = (description?: string): Schema => ({ type: 'boolean', ...(description ? { description } : {}) });
const uri = (description?: string): Schema => ({ ...str(description), format: 'uri' });
const time = (description?: string): Schema => ({ ...str(description), format: 'date-time' });
const array = (items: Schema, description?: string): Schema => ({ type: 'array', items, ...(description ? { description } : {}) });

/** A closed object: every property listed, `required` those named. */
export function object(properties: Record<string, Schema>, required: string[] = Object.keys(properties), description?: string): Schema {
  // OpenAPI 3.0 wants `required` absent rather than empty.
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false, ...(description ? { description } : {}) };
}

/** A request body's object: unknown fields are ignored, so the schema does not close it. */
export function input(properties: Record<string, Schema>, required: string[] = Object.keys(properties), description?: string): Schema {
  const { additionalProperties: _closed, ...open } = object(properties, required, description);
  return open;
}

export const languageCode: Schema = { type: 'string', enum: [...LANGUAGE_CODES], description: 'A language code' };

const translationMeta = object(
  {
    automated: bool('Made by machine translation'),
    provider: { type: 'string', nullable: true, description: 'Translation provider, null for a fallback' },
    source_language: str('Always "en"'),
    target_language: languageCode,
    verified: bool('Checked by a person'),
    stale: bool('The English source changed after this translation was made'),
    fallback_used: bool('English content returned for an unavailable translation'),
  },
  undefined,
  'Present on translated or fallback content; absent on English items',
);

const summaryProperties: Record<string, Schema> = {
  slug: { type: 'string', pattern: '^[a-z0-9-]+$', description: 'URL identifier of the post' },
  title: str(),
  date: time('Publication date'),
  modified: time('Last modification'),
  author: str(),
  summary: str('Short summary; may be absent'),
  url: uri('Canonical page of the post in the returned language'),
  featured_image: { type: 'string', nullable: true, description: 'Path of the featured image, null when none' },
  categories: array(str(), 'Category names in the item\'s language (English for English and fallback items); the slugs come from the English names'),
  tags: array(str(), 'Tag names in the item\'s language (English for English and fallback items); may be empty'),
  language: languageCode,
  is_translation: bool('False for English and for fallback content'),
  translations_available: array(languageCode, 'Other languages the post is available in'),
  english_url: uri('The English page'),
  translation: translationMeta,
};
const summaryRequired = ['slug', 'title', 'date', 'author', 'url', 'featured_image', 'categories', 'tags', 'language', 'is_translation', 'translations_available', 'english_url'];

export const postSummary = object(summaryProperties, summaryRequired, 'A post without its body');

export const searchHit = object(
  {
    ...summaryProperties,
    snippet: str('Plain text around the best match; "…" where cut'),
    missing_words: array(str(), 'The query\'s words this post holds in no form (not as written, in another form nor a typo away), as typed in lower case; in Chinese and Japanese what was written together counts as one. Empty when it holds them all: posts holding every word rank first, then those holding most'),
  },
  [...summaryRequired, 'snippet', 'missing_words'],
  'A post summary with the search snippet',
);

export const postDetail = object(
  {
    ...summaryProperties,
    content_html: str('Rendered HTML body'),
    content_markdown: str('Markdown body'),
    reading_time: int('Estimated minutes, whole, at least 1: words/230, or characters/500 for zh, ja and ko (DECISIONS.md). The reader\'s site shows its own estimate from per-language reading rates (docs/reader-site.md, Reading time), so one essay reads about the same time in each language there', 1),
    links: array(uri(), 'Every external http(s) URL in the body, in order'),
    media: array(object({ type: { type: 'string', enum: ['image', 'video'] }, src: uri() }), 'Images and videos in the body'),
    structure: object({ sections: array(object({ level: { type: 'integer', minimum: 2, maximum: 4 }, text: str(), id: str('The heading\'s id in content_html: the fragment that links to it on the page (`url#id`); unique in the post, in the heading\'s own script') })) }, undefined, 'Heading outline (h2 to h4)'),
  },
  [...summaryRequired, 'content_html', 'content_markdown', 'reading_time', 'links', 'media', 'structure'],
  'A post with its body',
);

/** What a standalone page has of a post's detail: no date, author, image or terms. */
const PAGE_FIELDS = ['slug', 'title', 'modified', 'summary', 'url', 'language', 'is_translation', 'translations_available', 'english_url', 'translation', 'content_html', 'content_markdown', 'reading_time', 'links', 'media', 'structure'];
const detailProperties = (postDetail as { properties: Record<string, Schema> }).properties;
export const pageDetail = object(
  Object.fromEntries(PAGE_FIELDS.map((k) => [k, detailProperties[k]!])),
  PAGE_FIELDS.filter((k) => !['modified', 'summary', 'translation'].includes(k)),
  'A standalone page (About, Colophon) with its body: a post detail without date, author, featured image and terms',
);

export const responseMeta = object(
  {
    language: languageCode,
    source_language: str('Always "en"'),
    is_translation: bool('Any returned item is a translation'),
    automated_translation: bool('Any returned item is an automated translation'),
    disclaimer: str('Present whenever an item is an automated translation'),
    available_languages: array(languageCode, 'For a detail, the languages of this post; for lists, languages with at least one post'),
  },
  ['language', 'source_language', 'is_translation', 'available_languages'],
);

export const pagination = object({ page: int(undefined, 1), per_page: int(undefined, 1), total: int(undefined, 0), total_pages: int(undefined, 0) });

const attribution = str('Please cite the site as the source');

export const collection = object({ attribution, data: array(postSummary), pagination, meta: responseMeta }, undefined, 'A page of post summaries');

export const single = object({ attribution, data: postDetail, meta: responseMeta }, undefined, 'One post with its body');

const cslName: Schema = { oneOf: [object({ family: str(), given: str() }), object({ literal: str() })] };
const cslDate = object({ 'date-parts': array(array(int(), 'Year, month, day'), 'One date') });

/** A CSL-JSON item (citeproc's input, csl-data.json) of type post-weblog. */
export const cslItem = object(
  {
    id: str('The slug, and -<lang> for a translation'),
    type: { type: 'string', enum: ['post-weblog'] },
    title: str('In the item\'s language'),
    author: array(cslName),
    issued: cslDate,
    URL: uri('The canonical page in the item\'s language'),
    language: str('BCP 47 tag of the item\'s language'),
    'container-title': str('The site\'s name'),
    abstract: str('The summary, when the post has one'),
    translator: array(cslName, 'A translation: its provider (an engine for a machine translation)'),
    'original-title': str('A translation: the English title'),
    'original-date': cslDate,
    note: str('A translation: "Machine translation (<provider>) of <English URL>"'),
    custom: object({ 'original-language': str('Always "en"'), 'original-URL': uri('The English page'), 'machine-translation': bool('Made by machine translation') }, undefined, 'A translation: what CSL has no variable for'),
  },
  ['id', 'type', 'title', 'author', 'issued', 'URL', 'language', 'container-title'],
  'CSL-JSON: feed [data.csl] to citeproc-js, citation.js, pandoc or Zotero',
);

export const citationBody = object(
  {
    attribution,
    data: object(
      {
        csl: cslItem,
        apa: str('APA 7 reference entry, plain text'),
        mla: str('MLA 9 works-cited entry, plain text'),
        chicago: str('Chicago 17 notes-bibliography: the bibliography entry, plain text'),
        bibtex: str('A BibTeX @misc entry'),
      },
      undefined,
      'How to cite the post in the returned language',
    ),
    meta: responseMeta,
  },
  undefined,
  'How to cite one post',
);

export const pageSingle = object({ attribution, data: pageDetail, meta: responseMeta }, undefined, 'One standalone page with its body');

export const imageRecord = object({
  type: { type: 'string', enum: ['image'] },
  url: str('Image path'),
  title: str('The image\'s alt text; for the featured image, the post\'s title'),
  description: str('The image\'s alt text (a featured image\'s is the front matter\'s featured_image_alt, in the item\'s language), else the post\'s summary'),
  width: int('Pixels', 1),
  height: int('Pixels', 1),
  post_slug: str(),
  post_url: uri(),
  post_title: str(),
});

export const searchBody = object(
  {
    attribution,
    data: array(searchHit),
    meta: responseMeta,
    query: str('The query, echoed'),
    total: int('All matches: posts holding at least one of the query\'s words (see missing_words)', 0),
    images: array(imageRecord, 'Images of the returned results'),
    total_images: int('Images of all matches', 0),
    suggestion: { type: 'string', nullable: true, description: 'Did you mean: the query with each word no post holds in any form (nor a typo away) replaced by the nearest word posts hold, when that finds posts; null otherwise' },
  },
  undefined,
  'Search results, most relevant first (no pagination block)',
);

export const taxonomyList = object({
  attribution,
  data: array(
    object({
      slug: str('Stable identifier, from the English name, the same in every language'),
      name: str('The name in the requested language (content/taxonomies.yaml), else the English name'),
      count: int('Posts available in the language', 0),
    }),
    'Ordered by name in the requested language',
  ),
});

export const languages = object({
  attribution,
  default_language: languageCode,
  total_languages: int(),
  translated_languages: int('Non-English languages with at least one available post'),
  languages: array(
    object({ code: languageCode, native_name: str(), name: str(), dir: { type: 'string', enum: ['ltr', 'rtl'] }, html_lang: str(), hreflang: str(), site_url: uri(), api_url: uri(), feed_url: uri() }),
  ),
});

export const site = object({ name: str(), description: str(), author: str(), url: uri(), post_count: int('English posts', 0), attribution });

export const product = object({
  attribution,
  title: str(),
  description: str(),
  format: str(),
  price_usd: { type: 'number' },
  currency: str(),
  landing_url: str(),
  download_url: str(),
  api_url: uri(),
});

export const status = object(
  {
    status: str('"ok"'),
    service: str(),
    timestamp: time(),
    host: str(),
    version: str(),
    active_streams: int('Open event streams, across every worker (and with REDIS_URL every live process: a dead one\'s stop counting within 6 s)', 0),
    workers: int('Worker threads serving this port', 1),
    worker: int('The worker that answered (1 to workers)', 1),
    store: object(
      {
        state: { type: 'string', enum: ['up', 'away'], description: 'The shared store (REDIS_URL, present only then): "away" while it is not asked (it failed or did not answer within its bound; probed every second)' },
        failed: int('Store calls that failed or ran past their bound since start (each answered without the store)', 0),
        skipped: int('Store calls not made while it was away (answered without it)', 0),
      },
      ['state', 'failed', 'skipped'],
    ),
  },
  ['status', 'service', 'timestamp', 'host'],
);

export const apiIndex = object({
  attribution,
  name: str(),
  version: str(),
  base_url: uri(),
  endpoints: array(object({ method: str(), path: str(), summary: str() })),
});

export const askAnswer = object(
  {
    status: { type: 'string', enum: ['success'] },
    query: str(),
    site: str('The host this answer is about'),
    language: languageCode,
    response: array(object({ url: uri(), name: str('Post title'), description: str('Summary, else the best snippet'), date: time() })),
  },
  ['status', 'query', 'response'],
);

export const askError = object({ status: { type: 'string', enum: ['error'] }, error: str() });

export const error = object({ error: str('What went wrong') }, ['error']);

export const languageError = object({ error: str(), supported_languages: array(languageCode) });

export const translationUnavailable = object(
  {
    error: str(),
    slug: str(),
    language: languageCode,
    status: { type: 'string', enum: ['missing', 'stale'] },
    english_url: uri(),
    fallback_url: uri('The same request with fallback=en'),
  },
  ['error', 'slug', 'language'],
);

export const batchResult = object({
  results: array(object({ path: str(), status: int(), body: { type: 'object', description: 'What the same GET returns alone' } })),
});

export const askRequest: Schema = {
  type: 'object',
  description: 'Flat {query, site?, streaming?} or NLWeb nested {query: {text, site?}, prefer: {streaming?}}',
  properties: {
    query: { oneOf: [str('The question'), input({ text: str(), site: str() }, ['text'])] },
    site: str("This site's name, SITE_URL or host; default this site"),
    streaming: { type: 'boolean', default: false },
    prefer: input({ streaming: bool() }, []),
  },
  required: ['query'],
};

export const batchRequest = input({
  requests: {
    type: 'array',
    minItems: 1,
    maxItems: 20,
    items: input({ path: str('An /api/ path with its query string'), method: { type: 'string', default: 'GET' } }, ['path']),
  },
});

export const jsonRpcRequest: Schema = {
  type: 'object',
  properties: { jsonrpc: { type: 'string', enum: ['2.0'] }, id: { oneOf: [str(), int()] }, method: str(), params: { type: 'object' } },
  required: ['jsonrpc', 'method'],
};

export const jsonRpcResponse: Schema = {
  type: 'object',
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { description: 'The request id: a string, a number, or null' },
    result: { type: 'object' },
    error: { type: 'object', properties: { code: int(), message: str(), data: {} }, required: ['code', 'message'] },
  },
  required: ['jsonrpc'],
};

export const graphqlRequest: Schema = {
  type: 'object',
  properties: { query: str('The GraphQL document'), variables: { type: 'object', nullable: true }, operationName: { type: 'string', nullable: true }, extensions: { type: 'object', nullable: true } },
  required: ['query'],
};

export const graphqlResponse: Schema = {
  type: 'object',
  properties: {
    data: { type: 'object', nullable: true },
    errors: array({
      type: 'object',
      properties: { message: str(), locations: array({ type: 'object' }), path: array({}), extensions: { type: 'object', properties: { code: { type: 'string', enum: ['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'NOT_FOUND', 'TRANSLATION_UNAVAILABLE', 'QUERY_TOO_COMPLEX', 'INTERNAL_SERVER_ERROR'] } }, required: ['code'] } },
      required: ['message', 'extensions'],
    }),
  },
};

const hex = (description: string): Schema => ({ type: 'string', pattern: '^0x[0-9a-fA-F]+$', description });
const decimal = (description: string): Schema => ({ type: 'string', pattern: '^[0-9]+$', description });

export const contactRequest = input(
  {
    sender: { type: 'string', maxLength: 200, description: 'Who is writing: a name or the identifier of the agent' },
    body: { type: 'string', maxLength: 20000, description: 'The message (plain text)' },
    reply_to: { type: 'string', format: 'email', maxLength: 254, description: 'An e-mail address for a reply' },
    callback: { type: 'string', format: 'uri', maxLength: 2048, description: 'An absolute http(s) URI where a reply may be sent' },
  },
  ['sender', 'body'],
);

const paymentRequirements = object(
  {
    scheme: { type: 'string', enum: ['exact'] },
    network: { type: 'string', pattern: '^eip155:[0-9]+$', description: 'CAIP-2 chain id' },
    amount: decimal('Price in the token\'s atomic units'),
    asset: hex('Token address'),
    payTo: hex('Address paid'),
    maxTimeoutSeconds: int(),
    extra: object({ name: str('Token EIP-712 domain name'), version: str('Token EIP-712 domain version'), assetTransferMethod: { type: 'string', enum: ['eip2612'] }, spender: hex('The relayer, spender of the permit') }),
  },
  undefined,
  'An x402 v2 PaymentRequirements (ERC-2612 permit offer)',
);

const contactField = object(
  { name: str(), type: { type: 'string', enum: ['string'] }, format: { type: 'string', enum: ['email', 'uri'] }, required: bool(), maxLength: int(), description: str() },
  ['name', 'type', 'required', 'maxLength', 'description'],
);

export const paymentRequiredBody = object(
  {
    message: str('What to pay and how'),
    price: str('Human readable, e.g. "$0.10"'),
    accepts: array(paymentRequirements, 'The same PaymentRequirements as the PAYMENT-REQUIRED header'),
    fields: array(contactField, 'The request fields'),
    error: str('Why the payment was refused'),
    errorReason: {
      type: 'string',
      enum: ['invalid_payload', 'invalid_x402_version', 'invalid_payment_requirements', 'invalid_permit_spender', 'invalid_permit_value', 'invalid_permit_deadline', 'invalid_permit_signature', 'invalid_permit_nonce', 'permit_already_used', 'insufficient_funds', 'invalid_transaction_state'],
    },
  },
  ['message', 'price', 'accepts', 'fields'],
);

export const contactInvalid = object({ error: str('Every problem, in one sentence'), fields: array(contactField) });

export const contactSent = object({
  status: { type: 'string', enum: ['sent'] },
  txHash: hex('The transferFrom transaction'),
  receipt: object({
    messageId: int('The stored message in the inbox', 1),
    network: str(),
    asset: hex('Token'),
    payer: hex('Permit owner'),
    payTo: hex('Payee'),
    amount: decimal('Atomic units'),
    transaction: hex('Equal to txHash'),
    blockNumber: decimal('Block of the transfer'),
    blockHash: hex('Block hash'),
  }),
});

/** Discovery documents follow outside standards with extension points, so they stay open. */
export const serverCard: Schema = {
  type: 'object',
  description: 'MCP server card with the fields of SEP-1649 (serverInfo, transport, capabilities, tools) and SEP-2127 (name, version, remotes)',
  properties: {
    name: str(),
    version: str(),
    description: str(),
    remotes: array({ type: 'object', properties: { type: str(), url: uri() }, required: ['type', 'url'] }),
    serverInfo: { type: 'object', properties: { name: str(), version: str() }, required: ['name', 'version'] },
    transport: { type: 'object', properties: { type: str(), endpoint: str() }, required: ['type', 'endpoint'] },
    capabilities: { type: 'object' },
    tools: array({ type: 'object', properties: { name: str(), description: str(), inputSchema: { type: 'object' } }, required: ['name', 'inputSchema'] }),
  },
  required: ['name', 'version', 'remotes', 'serverInfo', 'transport', 'capabilities', 'tools'],
};

export const agentCard: Schema = {
  type: 'object',
  description: 'A2A agent card',
  properties: { protocolVersion: str(), name: str(), description: str(), url: uri(), version: str(), capabilities: { type: 'object' }, skills: array({ type: 'object', properties: { id: str(), name: str(), description: str() }, required: ['id', 'name', 'description'] }) },
  required: ['protocolVersion', 'name', 'description', 'url', 'version', 'capabilities', 'skills', 'defaultInputModes', 'defaultOutputModes'],
};

export const linkset: Schema = {
  type: 'object',
  description: 'RFC 9264 linkset (RFC 9727 API catalog)',
  properties: { linkset: array({ type: 'object', properties: { anchor: uri() }, required: ['anchor'] }) },
  required: ['linkset'],
};

export const skillsIndex: Schema = {
  type: 'object',
  properties: {
    $schema: str(),
    skills: array(object({ name: str(), type: str(), description: str(), url: uri(), digest: str('sha256:<hex> of the served file'), sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' } })),
  },
  required: ['skills'],
};

/** OpenAPI's `nullable` as JSON Schema proper (MCP output schemas, Ajv in strict JSON Schema mode). */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const { nullable, ...rest } = schema as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, k === 'enum' || k === 'required' ? v : toJsonSchema(v)]));
  return nullable === true && typeof out.type === 'string' ? { ...out, type: [out.type, 'null'] } : out;
}
