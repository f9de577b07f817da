// Netlify Edge Function, declared on every path for OPTIONS only: the app's CORS preflight (204).
// It checks the method itself too: a rewrite by an earlier edge function (negotiation) runs the
// rest of the chain on the new path, and Netlify's runtime then matches by path alone.
import { preflight } from '../../../app/policies/cors.ts';
import { withPolicies } from './policies.ts';

export default (request: Request): Response | undefined => (request.method === 'OPTIONS' ? withPolicies(preflight()) : undefined);
