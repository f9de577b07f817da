import { GraphQLError } from 'graphql';
import { FolioError, type ErrorCode } from '../core/errors.ts';
import { camelKeys } from './camel-case.ts';

/** Every `extensions.code` the endpoint answers with; nothing else reaches a client. */
export const GRAPHQL_CODES = [
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'NOT_FOUND',
  'TRANSLATION_UNAVAILABLE',
  'QUERY_TOO_COMPLEX',
  'INTERNAL_SERVER_ERROR',
] as const;
export type GraphQLCode = (typeof GRAPHQL_CODES)[number];

const FROM_CATALOGUE: Record<ErrorCode, GraphQLCode> = {
  BAD_PARAMETER: 'BAD_USER_INPUT',
  UNSUPPORTED_LANGUAGE: 'BAD_USER_INPUT',
  NOT_FOUND: 'NOT_FOUND',
  TRANSLATION_UNAVAILABLE: 'TRANSLATION_UNAVAILABLE',
};

/** A core error as a GraphQL error: its code mapped, its details (camelCase) in extensions. */
export function fromFolioError(error: FolioError): GraphQLError {
  return new GraphQLError(error.message, { extensions: { code: FROM_CATALOGUE[error.code], ...camelKeys<object>(error.details) } });
}

export const UNEXPECTED_MESSAGE = 'Unexpected error.';

const isDocumented = (code: unknown): code is GraphQLCode => GRAPHQL_CODES.includes(code as GraphQLCode);

/** Is this error GraphQL's own (parse, validation, request), not something a resolver ran into? */
function isOriginal(error: GraphQLError): boolean {
  const cause = error.originalError;
  return cause === undefined || (cause instanceof GraphQLError && isOriginal(cause));
}

/**
 * Yoga's masking hook: the last step of every error. An error of GraphQL's own keeps its message,
 * with its code folded into the documented set; anything else is masked as INTERNAL_SERVER_ERROR,
 * so no message or stack of the server leaks.
 */
export function formatError(error: unknown): GraphQLError {
  if (!(error instanceof GraphQLError && isOriginal(error))) return masked(error);
  if (!isDocumented(error.extensions.code)) foldCode(error);
  return error;
}

/**
 * Rewritten in place, as Yoga does: Yoga logs every error its mask replaces, and these are not
 * incidents. A field graphql-js could not complete is ours; a request-level problem (a bad JSON
 * body, an unknown operationName, a variable of the wrong type) is the client's input.
 */
function foldCode(error: GraphQLError): void {
  const extensions = error.extensions as { code?: unknown; http?: { spec?: boolean } };
  if (error.path) {
    extensions.code = 'INTERNAL_SERVER_ERROR';
    return;
  }
  // A variable that does not coerce (graphql-js gives it no code) fails like a validation error:
  // GraphQL over HTTP answers it 200 for application/json, 400 for graphql-response+json.
  if (extensions.code === undefined && extensions.http) extensions.http.spec = true;
  extensions.code = 'BAD_USER_INPUT';
}

function masked(error: unknown): GraphQLError {
  const located = error instanceof GraphQLError ? error : undefined;
  return new GraphQLError(UNEXPECTED_MESSAGE, {
    nodes: located?.nodes,
    source: located?.source,
    positions: located?.positions,
    path: located?.path,
    // `unexpected` (not sent) lets Yoga answer 500 when no data could be produced.
    extensions: { code: 'INTERNAL_SERVER_ERROR', unexpected: true, ...(located?.extensions.http ? { http: located.extensions.http } : {}) },
  });
}
