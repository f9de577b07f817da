import { DEFAULT_LANGUAGE, matchLanguage } from './languages.ts';
import { errors } from './errors.ts';

/**
 * Query validation shared by every surface. Each reader takes only the keys it knows,
 * so unknown parameters are dropped here and nowhere else.
 */
export const PER_PAGE_DEFAULT = 10;
export const PER_PAGE_MAX = 100;
export const QUERY_MAX_CHARS = 256;

export type Params = Pick<URLSearchParams, 'get'>;

export interface LangQuery {
  lang: string;
}
export interface ContentQuery extends LangQuery {
  fallback: boolean;
}
export interface PageQuery {
  page: number;
  per_page: number;
}
export type ListQuery = ContentQuery & PageQuery;

const DIGITS = /^[1-9][0-9]*$/;

export function readLang(params: Params): LangQuery {
  const raw = params.get('lang');
  if (raw === null) return { lang: DEFAULT_LANGUAGE };
  const found = matchLanguage(raw);
  if (!found) throw errors.unsupportedLanguage(raw);
  return { lang: found.code };
}

export function readContent(params: Params): ContentQuery {
  const { lang } = readLang(params);
  const raw = params.get('fallback');
  if (raw !== null && raw !== 'en') throw errors.badParameter('fallback', 'the only allowed value "en"');
  return { lang, fallback: raw === 'en' };
}

function readInteger(params: Params, name: string, fallback: number, max: number): number {
  const raw = params.get(name);
  if (raw === null) return fallback;
  const value = DIGITS.test(raw) ? Number(raw) : NaN;
  if (!(value >= 1 && value <= max)) {
    throw errors.badParameter(name, max === Number.MAX_SAFE_INTEGER ? 'an integer >= 1' : `an integer from 1 to ${max}`);
  }
  return value;
}

export function readPage(params: Params): PageQuery {
  return {
    page: readInteger(params, 'page', 1, Number.MAX_SAFE_INTEGER),
    per_page: readInteger(params, 'per_page', PER_PAGE_DEFAULT, PER_PAGE_MAX),
  };
}

export function readList(params: Params): ListQuery {
  return { ...readContent(params), ...readPage(params) };
}

/** `q` wins over `query`; blank (only white space) counts as missing; length counts code points. */
export function readSearchText(params: Params): string {
  const raw = params.get('q') ?? params.get('query') ?? '';
  const text = raw.trim();
  if (text === '') throw errors.missingQuery();
  if ([...raw].length > QUERY_MAX_CHARS) {
    throw errors.badParameter('q', `at most ${QUERY_MAX_CHARS} characters`);
  }
  return text;
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Named arguments (GraphQL, MCP) as the query parameters REST would send, so the readers above
 * validate them the same way. `names` maps an argument to its parameter (`query` -> `q`); absent
 * and null are left out; anything but a string or a number is a 400.
 */
export function argumentsAsParams(args: object, names: Record<string, string>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [arg, param] of Object.entries(names)) {
    const value: unknown = (args as Record<string, unknown>)[arg];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' && typeof value !== 'number') throw errors.invalidRequest(`Argument "${arg}" must be a string or a number.`);
    out.set(param, String(value));
  }
  return out;
}

/**
 * Which reader an endpoint's query goes through (every other parameter is ignored). `search` is
 * the search page's: only its form without a query is published, so any query is computed.
 */
export type QueryShape = 'list' | 'content' | 'lang' | 'none' | 'search';

/**
 * The query an endpoint reads, as one canonical string: the reader's values, defaults left out,
 * in the order lang, fallback, page, per_page. Two requests with the same canonical query get the
 * same answer, so it keys published files and cached answers. Throws as the readers do.
 */
export function canonicalQuery(shape: QueryShape, params: Params): string {
  if (shape === 'none') return '';
  if (shape === 'search') {
    if ((params.get('q') ?? params.get('query') ?? '').trim() === '') return '';
    const { page } = readPage(params);
    return [`q=${encodeURIComponent(readSearchText(params))}`, ...(page !== 1 ? [`page=${page}`] : [])].join('&');
  }
  const parts: string[] = [];
  const { lang } = readLang(params);
  if (lang !== DEFAULT_LANGUAGE) parts.push(`lang=${lang}`);
  if (shape === 'lang') return parts.join('&');
  if (readContent(params).fallback) parts.push('fallback=en');
  if (shape === 'content') return parts.join('&');
  const { page, per_page } = readPage(params);
  if (page !== 1) parts.push(`page=${page}`);
  if (per_page !== PER_PAGE_DEFAULT) parts.push(`per_page=${per_page}`);
  return parts.join('&');
}

/**
 * A search's answer key: its canonical list query and the query text as it is searched (`q` or
 * `query`, trimmed). Throws as the readers do.
 */
export function canonicalSearchQuery(params: Params): string {
  return `q=${encodeURIComponent(readSearchText(params))}&${canonicalQuery('list', params)}`;
}
