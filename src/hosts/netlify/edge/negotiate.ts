// Netlify Edge Function, declared on the negotiated URLs' patterns for requests whose `Accept`
// names JSON or Markdown only (its `config.header`): it picks the offer as the app does and
// rewrites to that offer's published file; browsers (HTML, the default offer) never run it.
import { negotiate } from '../../../core/negotiate.ts';
import { FORMATS } from '../../../core/formats.ts';
import type { Offer } from '../../../artefact/manifest.ts';

/** Negotiated URL -> the file of each offer (the first is the default), written in by the build. */
declare const FOLIO_NEGOTIATED: Record<string, Partial<Record<Offer, string>>>;

export default (request: Request): URL | undefined => {
  const url = new URL(request.url);
  const files = FOLIO_NEGOTIATED[url.pathname];
  if (!files || url.search) return undefined;
  const offers = (Object.keys(files) as Offer[]).map((o) => FORMATS[o]);
  const chosen = negotiate(request.headers.get('accept'), offers).name as Offer;
  // A page that is the default answer is the CDN's to serve at its URL; anything else is rewritten.
  return chosen === 'html' && offers[0]!.name === 'html' ? undefined : new URL(files[chosen]!, url);
};
