import { CORS_HEADERS } from '../../../app/policies/cors.ts';
import { SECURITY_HEADERS } from '../../../app/policies/security.ts';

/** CORS and security headers on an answer made at the edge, as the app's `policyHeaders` adds them. */
export function withPolicies(response: Response): Response {
  for (const [k, v] of Object.entries({ ...CORS_HEADERS, ...SECURITY_HEADERS })) response.headers.set(k, v);
  return response;
}
