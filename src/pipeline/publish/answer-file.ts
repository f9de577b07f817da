/** Where a published answer lives in the static artefact: pure, so the docs can state it too. */
const EXTENSIONS: [RegExp, string][] = [
  [/^application\/([a-z.-]+\+)?json\b/, 'json'],
  [/^text\/markdown\b/, 'md'],
  [/^text\/plain\b/, 'txt'],
];

/**
 * The file a static host serves for an answer: the path itself when it names a file
 * (`/openapi.json`), else `{path}/index.{ext}`; a query goes to `{path}/_query/{query}.{ext}`
 * (`/api/posts?lang=fr&page=2` -> `/api/posts/_query/lang=fr&page=2.json`). `_` never starts a slug.
 */
export function answerFile(path: string, query: string, type: string): string {
  const ext = EXTENSIONS.find(([re]) => re.test(type))?.[1] ?? 'bin';
  if (query) return `${path}/_query/${query}.${ext}`;
  return /\.[a-z0-9]+$/i.test(path.slice(path.lastIndexOf('/'))) ? path : `${path}/index.${ext}`;
}
