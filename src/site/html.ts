/** Text as HTML text or attribute value: the five characters that could end either are escaped. */
export const escapeHtml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c]!);

/**
 * A message as HTML: its text escaped, each `{name}` placeholder replaced by the HTML given for it
 * (already escaped by the caller, e.g. a query isolated in `<bdi>`).
 */
export const fillHtml = (message: string, html: Record<string, string>) =>
  escapeHtml(message).replace(/\{(\w+)\}/g, (whole, key: string) => html[key] ?? whole);
