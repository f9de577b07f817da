/**
 * Tagged text as Google reads HTML and back. A placeholder `<x i="n"></x>` travels as
 * `<span translate="no" data-folio="n"></span>`, the attribute Google documents for text it must
 * leave alone; links and emphasis travel as they are. On the way back every tag that is not one of
 * ours is dropped with its attributes (Google wraps or marks Arabic with `dir="rtl"` and styles),
 * its words kept, so the rest of Folio only ever sees its own tags.
 */
export const toGoogleHtml = (tagged: string) => tagged.replace(/<x i="(\d+)">/g, '<span translate="no" data-folio="$1">').replace(/<\/x>/g, '</span>');

const TAG = /<(\/?)([a-z][a-z0-9]*)\b([^<>]*?)(\/?)>/gi;
const EMPHASIS = new Set(['em', 'strong', 'del']);
/** Elements that never close (an engine's `<br>`): nothing of ours, and nothing to wait for. */
const VOID = new Set(['br', 'wbr', 'hr', 'img']);
const attribute = (attrs: string, name: string) => new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(attrs)?.slice(1).find((v) => v !== undefined);

export function fromGoogleHtml(html: string): string {
  // What each open tag became: its closing tag in Folio's form, or '' for one dropped.
  const open: { name: string; close: string }[] = [];
  return html.replace(TAG, (whole, closing: string, rawName: string, attrs: string, selfClosing: string) => {
    const name = rawName.toLowerCase();
    if (closing) {
      // A closing tag that closes nothing open is left for the checks to refuse.
      if (open.at(-1)?.name !== name) return whole;
      return open.pop()!.close;
    }
    let opening = '';
    let close = '';
    const placeholder = name === 'span' && attribute(attrs, 'translate')?.toLowerCase() === 'no' ? attribute(attrs, 'data-folio') : undefined;
    const link = name === 'a' ? attribute(attrs, 'i') : undefined;
    if (placeholder !== undefined) [opening, close] = [`<x i="${placeholder}">`, '</x>'];
    else if (link !== undefined) [opening, close] = [`<a i="${link}">`, '</a>'];
    else if (EMPHASIS.has(name)) [opening, close] = [`<${name}>`, `</${name}>`];
    if (VOID.has(name)) return '';
    if (selfClosing) return opening + close;
    open.push({ name, close });
    return opening;
  });
}
