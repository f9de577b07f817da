import { LANGUAGE_CODES } from '../core/languages.ts';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX, QUERY_MAX_CHARS } from '../core/params.ts';
import type { Schema } from '../schemas/resources.ts';

/** The query and path parameters of OpenAPI, named once and reused by every operation. */
const query = (name: string, schema: Schema, description: string, required = false): Schema => ({ name, in: 'query', required, description, schema });

export const PARAMETERS: Record<string, Schema> = {
  lang: query('lang', { type: 'string', enum: [...LANGUAGE_CODES], default: 'en' }, 'Language of the content; matched case-insensitively (pt-BR = pt-br). Anything else is a 400 listing supported_languages.'),
  fallback: query('fallback', { type: 'string', enum: ['en'] }, 'With "en": posts not available in lang are returned in English, marked translation.fallback_used. Any other value is a 400.'),
  page: query('page', { type: 'integer', minimum: 1, default: 1 }, 'Page number: plain decimal digits (no sign, no leading zero). A page past the end is 200 with data: [].'),
  per_page: query('per_page', { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: PER_PAGE_DEFAULT }, `Items per page, 1 to ${PER_PAGE_MAX}.`),
  q: query('q', { type: 'string', minLength: 1, maxLength: QUERY_MAX_CHARS }, `Search words (preferred over query). "Quoted words" match as a phrase. Blank or over ${QUERY_MAX_CHARS} characters is a 400.`),
  pageQ: query('q', { type: 'string', maxLength: QUERY_MAX_CHARS }, 'Search words, as /api/search reads them; blank or absent shows the form alone.'),
  query: query('query', { type: 'string', minLength: 1, maxLength: QUERY_MAX_CHARS }, 'Alias of q (q wins when both are given).'),
  slug: { name: 'slug', in: 'path', required: true, description: 'URL identifier', schema: { type: 'string', pattern: '^[a-z0-9-]+$' } },
  askQuery: query('query', { type: 'string', minLength: 1 }, 'The question.', true),
  askSite: query('site', { type: 'string' }, "This site's name, URL or host (default: this site). Anything else is a 400."),
  askStreaming: query('streaming', { type: 'string', enum: ['true', 'false', '1', '0'] }, 'true streams signed events.'),
  sessionId: query('sessionId', { type: 'string', format: 'uuid' }, 'The session named by the endpoint event.', true),
  gqlQuery: query('query', { type: 'string' }, 'A GraphQL query document (GET execution).'),
  gqlVariables: query('variables', { type: 'string' }, 'JSON-encoded variables.'),
  gqlOperationName: query('operationName', { type: 'string' }, 'Which operation of the document to run.'),
  introspection: { ...query('introspection', { type: 'string' }, 'Present (even empty): answer the introspection result as JSON.'), allowEmptyValue: true },
  paymentSignature: { name: 'PAYMENT-SIGNATURE', in: 'header', required: false, description: 'x402 v2 PaymentPayload, base64 JSON, carrying a signed ERC-2612 permit (absent on the first call)', schema: { type: 'string' } },
  skill: { name: 'skill', in: 'path', required: true, description: 'Skill name from the index', schema: { type: 'string' } },
  langPath: { name: 'lang', in: 'path', required: true, description: 'A language code other than en', schema: { type: 'string', enum: LANGUAGE_CODES.filter((c) => c !== 'en') } },
};

export const CONTENT = ['lang', 'fallback'];
export const LIST = ['page', 'per_page', 'lang', 'fallback'];
export const SEARCH = ['q', 'query', 'lang', 'fallback', 'page', 'per_page'];
