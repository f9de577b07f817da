// Netlify Edge Function, declared on every path for requests that carry `Authorization` only
// (its `config.header`), so ordinary reads never run it: a bearer token gets the app's 401.
import { rejectBearer } from '../../../app/policies/bearer.ts';
import { withPolicies } from './policies.ts';

export default (request: Request): Response | undefined => {
  const refused = rejectBearer(request.headers.get('authorization'), new URL(request.url).origin);
  return refused && withPolicies(refused);
};
