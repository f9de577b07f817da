import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import { FIELDS } from '../src/contact/fields.ts';
import type { RequestContext } from './context.ts';
import { json, readJson } from './http.ts';
import type { Route } from './route.ts';

const NO_STORE = { 'cache-control': 'no-store' };

/** POST /contact/send: the HTTP face of the paid-contact service (statuses, x402 v2 headers). */
async function sendMessage(ctx: RequestContext): Promise<Response> {
  const service = ctx.root.contact;
  if (!service) return json({ error: 'Paid contact is not available on this server: it is switched off or not configured.' }, 503, NO_STORE);
  // An empty body is a message without fields (a 422 that lists them), not malformed JSON.
  const body = await readJson(ctx.request);
  if (!body) return json({ error: 'The body is not valid JSON.' }, 400, NO_STORE);
  const outcome = await service.send({ body: body.value, payment: ctx.request.headers.get('payment-signature') });
  switch (outcome.kind) {
    case 'invalid':
      return json({ error: outcome.error, fields: FIELDS }, 422, NO_STORE);
    case 'payment_required':
      return json(outcome.body, 402, {
        ...NO_STORE,
        'payment-required': encodePaymentRequiredHeader(outcome.required),
        ...(outcome.settlement && { 'payment-response': encodePaymentResponseHeader(outcome.settlement) }),
      });
    case 'conflict':
      return json({ error: outcome.error }, 409, NO_STORE);
    case 'unavailable':
      return json({ error: outcome.error }, 503, { ...NO_STORE, 'retry-after': '5' });
    case 'sent':
      return json(outcome.answer.body, 200, { ...NO_STORE, 'payment-response': encodePaymentResponseHeader(outcome.answer.settlement) });
  }
}

export const contactRoutes: Route[] = [
  {
    method: 'POST',
    path: '/contact/send',
    summary: 'Paid message to the site owner (x402 v2, ERC-2612 permit in PAYMENT-SIGNATURE): {sender, body, reply_to?, callback?}',
    handler: sendMessage,
  },
];
