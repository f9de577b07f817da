/**
 * The GraphQL schema, as SDL: the one source of the types (served at `GET /graphql`, executed
 * by the resolvers). Field names are the REST field names in camelCase, so a GraphQL answer
 * and the REST answer for the same request match key by key after that mapping.
 */
export const GRAPHQL_VERSION = '2026-06';

/** The summary fields every post type repeats (SDL has no field inheritance). */
const POST_FIELDS = `  slug: String!
  title: String!
  date: String!
  modified: String
  author: String!
  summary: String
  url: String!
  "A site path, or null when the post has no image."
  featuredImage: String
  "Category names in the language of the returned content."
  categories: [String!]!
  "Tag names in the language of the returned content."
  tags: [String!]!
  "Language of the returned content."
  language: String!
  isTranslation: Boolean!
  "Other languages the post is available in."
  translationsAvailable: [String!]!
  englishUrl: String!
  "Present for translated or fallback content."
  translation: TranslationMeta
`;

export const SDL = /* GraphQL */ `
"""
Folio read API, GraphQL calendar version ${GRAPHQL_VERSION}. Read-only: there are no mutations.
The same data as the REST API under /api/, with REST field names in camelCase.
Lists are Relay connections: \`first\` (1 to 100, default 10) and \`after\` (an opaque cursor).
\`lang\` is one of the 14 language codes (case-insensitive, default en); \`fallback\` is only "en".
Errors carry \`extensions.code\`: GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED, BAD_USER_INPUT,
NOT_FOUND, TRANSLATION_UNAVAILABLE, QUERY_TOO_COMPLEX or INTERNAL_SERVER_ERROR.
"""
schema {
  query: Query
}

type Query {
  "Site name, description (in \`lang\` where the site has one), author, home URL and post count."
  site(lang: String): Site
  "The supported languages with their homes, APIs and feeds."
  languages: Languages
  """
  Post summaries, newest first (the order of GET /api/posts). Without \`fallback\`, only posts
  available in \`lang\`; with \`fallback: "en"\`, every post, untranslated ones in English.
  \`category\` and \`tag\` are slugs; given both, a post must carry both. An unknown slug is NOT_FOUND.
  """
  posts(first: Int = 10, after: String, lang: String, fallback: String, category: String, tag: String): PostConnection
  """
  One post with its body. Unknown slug: null and NOT_FOUND. A translation that is missing or
  stale: null and TRANSLATION_UNAVAILABLE (extensions carry status, englishUrl, fallbackUrl)
  unless \`fallback: "en"\` is given.
  """
  post(slug: String!, lang: String, fallback: String): Post
  """
  How to cite a post in \`lang\` (the data of GET /api/posts/{slug}/cite): CSL-JSON and the APA,
  MLA, Chicago and BibTeX forms made from it. Errors as \`post\`.
  """
  citation(slug: String!, lang: String, fallback: String): Citation
  """
  Search ranked by relevance (the order of GET /api/search). \`query\` as REST's \`q\`: not
  blank, at most 256 characters; \`"quoted words"\` must appear as a phrase.
  """
  search(query: String!, lang: String, fallback: String, first: Int = 10, after: String): SearchConnection
  "Categories with the number of posts available in \`lang\`; categories with none there are left out."
  categories(lang: String): [Term!]
  "Tags with the number of posts available in \`lang\`; tags with none there are left out."
  tags(lang: String): [Term!]
}

type Site {
  name: String!
  description: String!
  author: String!
  "Home page in the requested language."
  url: String!
  "Number of English posts."
  postCount: Int!
  attribution: String!
}

type Languages {
  attribution: String!
  defaultLanguage: String!
  totalLanguages: Int!
  "Non-English languages with at least one available post."
  translatedLanguages: Int!
  languages: [Language!]!
}

type Language {
  code: String!
  nativeName: String!
  name: String!
  "ltr or rtl"
  dir: String!
  htmlLang: String!
  hreflang: String!
  siteUrl: String!
  apiUrl: String!
  feedUrl: String!
}

type Term {
  "Stable identifier, from the English name, the same in every language."
  slug: String!
  "The name in the requested language, else the English name."
  name: String!
  "Posts available in the requested language."
  count: Int!
}

"The fields of a REST post summary, shared by list items, search results and the post detail."
interface PostFields {
${POST_FIELDS}}

"A post in a list (a REST post summary)."
type PostSummary implements PostFields {
${POST_FIELDS}}

"A search result: a post summary with a snippet around the best match."
type SearchHit implements PostFields {
${POST_FIELDS}  "Plain text around the best match (the word searched whole where the text has it), with an ellipsis where a sentence is cut."
  snippet: String!
  "The query's words this post holds in no form, as typed in lower case (in Chinese and Japanese what was written together counts as one); empty when it holds them all: posts holding every word rank first, then those holding most (REST's missing_words)."
  missingWords: [String!]!
}

"A post with its body (the REST post detail)."
type Post implements PostFields {
${POST_FIELDS}  contentHtml: String!
  contentMarkdown: String!
  "Estimated minutes, at least 1, from its language's reading rate (see reading_time in /openapi.json)."
  readingTime: Int!
  "Every external URL in the body, in order of appearance."
  links: [String!]!
  media: [Media!]!
  structure: Structure!
}

"How to cite a post: CSL-JSON and the forms made from it."
type Citation {
  "The CSL-JSON item (type post-weblog, the citeproc input schema) as JSON text: its keys (container-title, URL) are no GraphQL names."
  csl: String!
  "APA 7 reference entry."
  apa: String!
  "MLA 9 works-cited entry."
  mla: String!
  "Chicago 17 notes-bibliography: the bibliography entry."
  chicago: String!
  "A BibTeX @misc entry."
  bibtex: String!
}

type TranslationMeta {
  automated: Boolean!
  provider: String
  sourceLanguage: String!
  targetLanguage: String!
  verified: Boolean!
  stale: Boolean!
  fallbackUsed: Boolean!
}

type Media {
  "image or video"
  type: String!
  src: String!
}

type Structure {
  "Every h2 to h4 heading, in order."
  sections: [Section!]!
}

type Section {
  level: Int!
  text: String!
  "The heading's id in contentHtml: the fragment that links to it on the page."
  id: String!
}

"What the returned items are (REST's response meta)."
type ResponseMeta {
  "The requested language."
  language: String!
  sourceLanguage: String!
  isTranslation: Boolean!
  automatedTranslation: Boolean!
  "Present whenever a returned item is an automated translation."
  disclaimer: String
  "Languages with at least one available post."
  availableLanguages: [String!]!
}

type PageInfo {
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
  endCursor: String
}

type PostConnection {
  edges: [PostEdge!]!
  pageInfo: PageInfo!
  "Posts in the whole list (REST's pagination.total)."
  totalCount: Int!
  "Describes the returned edges."
  meta: ResponseMeta!
  attribution: String!
}

type PostEdge {
  cursor: String!
  node: PostSummary!
}

type SearchConnection {
  edges: [SearchEdge!]!
  pageInfo: PageInfo!
  "All matches (REST's total)."
  totalCount: Int!
  "Describes the returned edges."
  meta: ResponseMeta!
  attribution: String!
  "The query as searched."
  query: String!
  "Featured and inline images of the returned results, deduplicated."
  images: [Image!]!
  "Images of all matches."
  totalImages: Int!
  "Did you mean: the query with each word no post holds in any form (nor a typo away) replaced by the nearest word posts hold, when that finds posts; null otherwise (REST's suggestion)."
  suggestion: String
}

type SearchEdge {
  cursor: String!
  node: SearchHit!
}

type Image {
  "image"
  type: String!
  "A site path."
  url: String!
  title: String!
  description: String!
  width: Int!
  height: Int!
  postSlug: String!
  postUrl: String!
  postTitle: String!
}
`;
