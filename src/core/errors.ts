import { LANGUAGE_CODES } from './languages.ts';

/**
 * The error catalogue. Names never change; each surface maps a code to its own form
 * (HTTP status, GraphQL extensions.code, MCP isError result).
 */
export type ErrorCode =
  | 'BAD_PARAMETER'
  | 'UNSUPPORTED_LANGUAGE'
  | 'NOT_FOUND'
  | 'TRANSLATION_UNAVAILABLE';

export const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_PARAMETER: 400,
  UNSUPPORTED_LANGUAGE: 400,
  NOT_FOUND: 404,
  TRANSLATION_UNAVAILABLE: 404,
};

export class FolioError extends Error {
  readonly code: ErrorCode;
  /** Extra fields of the error body, after `error`. */
  readonly details: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }
  get status(): number {
    return HTTP_STATUS[this.code];
  }
  body(): Record<string, unknown> {
    return { error: this.message, ...this.details };
  }
}

export const errors = {
  unsupportedLanguage: (value: string) =>
    new FolioError('UNSUPPORTED_LANGUAGE', `Unsupported language "${value}" in ?lang=. Use one of the supported_languages.`, {
      supported_languages: [...LANGUAGE_CODES],
    }),
  badParameter: (name: string, expected: string) =>
    new FolioError('BAD_PARAMETER', `Invalid ?${name}= parameter: expected ${expected}.`),
  /** A named argument of a surface without query strings (GraphQL, MCP). */
  badArgument: (name: string, expected: string) =>
    new FolioError('BAD_PARAMETER', `Invalid argument "${name}": expected ${expected}.`),
  invalidRequest: (message: string) => new FolioError('BAD_PARAMETER', message),
  missingQuery: () =>
    new FolioError('BAD_PARAMETER', 'The ?q= parameter is required: give a non-blank search query.'),
  notFound: (what: string, slug: string) => new FolioError('NOT_FOUND', `${what} "${slug}" not found.`),
  translationUnavailable: (
    slug: string,
    language: string,
    status: 'missing' | 'stale',
    english_url: string,
    fallback_url: string,
  ) =>
    new FolioError(
      'TRANSLATION_UNAVAILABLE',
      status === 'missing'
        ? `Post "${slug}" has no translation in "${language}". Add fallback=en to get the English original.`
        : `The "${language}" translation of post "${slug}" is out of date with the English source. Add fallback=en to get the English original.`,
      { slug, language, status, english_url, fallback_url },
    ),
};
