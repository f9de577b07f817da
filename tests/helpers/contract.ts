import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Contract check for every JSON response the suite sees: it must be documented in the served
 * /openapi.json (path, method, status) and match the schema given there. Unknown paths may
 * only give the global answers (400 bad path, 401, 404, 405, 429) with an {error} body.
 */
type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown>; $ref?: string }> }>> };

const docs = new Map<string, Promise<{ doc: Doc; ajv: Ajv; id: string }>>();
const validators = new Map<string, ValidateFunction>();
export const checked = { responses: 0 };

function load(origin: string): Promise<{ doc: Doc; ajv: Ajv; id: string }> {
  let p = docs.get(origin);
  if (!p) {
    const id = `openapi-${docs.size}`;
    p = fetch(`${origin}/openapi.json`).then(async (res) => {
      const doc = (await res.json()) as Doc;
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats.default(ajv);
      ajv.addSchema(doc, id);
      return { doc, ajv, id };
    });
    docs.set(origin, p);
  }
  return p;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The documented template for a concrete path: literal segments beat parameters. */
export function matchTemplate(templates: string[], path: string): string | undefined {
  const segs = path.split('/');
  let best: { t: string; score: number } | undefined;
  for (const t of templates) {
    const ts = t.split('/');
    if (ts.length !== segs.length) continue;
    let score = 0;
    const ok = ts.every((seg, i) => {
      if (seg === segs[i]) return (score += 2), true;
      const re = new RegExp(`^${seg.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      return seg.includes('{') && re.test(segs[i]!) && (score += seg === `{${seg.slice(1, -1)}}` ? 0 : 1, true);
    });
    if (ok && (!best || score > best.score)) best = { t, score };
  }
  return best?.t;
}

const GLOBAL = new Set([400, 401, 404, 405, 413, 429]);

export async function checkContract(base: string, path: string, method: string, status: number, contentType: string, body: unknown): Promise<void> {
  if (!/[/+]json\b/.test(contentType) || method === 'HEAD' || status === 304) return;
  const url = new URL(path, base);
  const sandbox = url.pathname === '/sandbox' || url.pathname.startsWith('/sandbox/');
  const origin = `${url.origin}${sandbox ? '/sandbox' : ''}`;
  const inner = sandbox ? url.pathname.slice('/sandbox'.length) || '/' : url.pathname;
  const { doc, ajv, id } = await load(origin);
  const template = matchTemplate(Object.keys(doc.paths), inner);
  const op = template ? doc.paths[template]![method.toLowerCase()] : undefined;
  let schemaRef: string;
  if (!op) {
    if (!GLOBAL.has(status)) throw new Error(`contract: ${method} ${inner} (${status}) is not in /openapi.json`);
    schemaRef = `${id}#/components/schemas/Error`;
  } else {
    const reply = op.responses[String(status)];
    if (!reply) throw new Error(`contract: ${method} ${template} answered ${status}, which /openapi.json does not list`);
    const ref = reply.$ref ? reply.$ref.replace(/^#/, '') : `/paths/${pointer(template!, method.toLowerCase())}/responses/${status}`;
    const resolved = reply.$ref ? (ref.split('/').slice(1).reduce((o: any, k) => o[k], doc) as { content?: Record<string, unknown> }) : reply;
    const media = Object.keys(resolved.content ?? {}).find((m) => /json/.test(m));
    if (!media) throw new Error(`contract: ${method} ${template} ${status} answered JSON, but /openapi.json documents no JSON body`);
    schemaRef = `${id}#${ref}/content/${pointer(media)}/schema`;
  }
  let validate = validators.get(schemaRef);
  if (!validate) validators.set(schemaRef, (validate = ajv.compile({ $ref: schemaRef })));
  checked.responses++;
  if (!validate(body)) throw new Error(`contract: ${method} ${inner} ${status} does not match ${schemaRef}:\n${ajv.errorsText(validate.errors, { separator: '\n' })}`);
}
