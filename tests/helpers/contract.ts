import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { loadCore } from '../../src/bundle/load-bundle.ts';
import { DIST } from '../../src/artefact/roots.ts';
import { openApiDocument } from '../../src/openapi/document.ts';
import { ROUTES } from '../../functions/routes.ts';
import pkg from '../../package.json' with { type: 'json' };

/**
 * Contract check for every JSON response the suite sees: it must be documented in the OpenAPI
 * document (path, method, status) and match the schema given there. The document is built
 * in-process by the same code that serves /openapi.json (fetching it would spend the rate limit
 * that some tests measure). Unknown paths may only give the global answers (400 bad path, 401,
 * 404, 405, 413, 429) with an {error} body.
 */
type Param = { in: string; name: string; schema: { enum?: string[]; pattern?: string } };
type Op = { parameters?: { $ref: string }[]; responses: Record<string, { content?: Record<string, unknown>; $ref?: string }> };
type Doc = { paths: Record<string, Record<string, Op>>; components: { parameters: Record<string, Param> } };

const docs = new Map<string, Promise<{ doc: Doc; ajv: Ajv; id: string }>>();
const validators = new Map<string, ValidateFunction>();
export const checked = { responses: 0 };

function load(root: 'main' | 'sandbox'): Promise<{ doc: Doc; ajv: Ajv; id: string }> {
  let p = docs.get(root);
  if (!p) {
    const id = `openapi-${root}`;
    p = loadCore(DIST.bundle(root)).then(async (core) => {
      const doc = JSON.parse(JSON.stringify(await openApiDocument(core, ROUTES, pkg.version))) as Doc;
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats.default(ajv);
      ajv.addSchema(doc, id);
      return { doc, ajv, id };
    });
    docs.set(root, p);
  }
  return p;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Does a path segment fit the named parameter's schema (enum, pattern) in this path item? */
function fits(doc: Doc, template: string, name: string, value: string): boolean {
  for (const op of Object.values(doc.paths[template] ?? {})) {
    for (const ref of op.parameters ?? []) {
      const p = doc.components.parameters[ref.$ref.split('/').pop()!];
      if (p?.in !== 'path' || p.name !== name) continue;
      if (p.schema.enum && !p.schema.enum.includes(value)) return false;
      if (p.schema.pattern && !new RegExp(p.schema.pattern).test(value)) return false;
    }
  }
  return true;
}

/** The documented template for a concrete path: literal segments beat parameters. */
export function matchTemplate(templates: string[], path: string, accepts: (template: string, name: string, value: string) => boolean = () => true): string | undefined {
  const segs = path.split('/');
  let best: { t: string; score: number } | undefined;
  for (const t of templates) {
    const ts = t.split('/');
    if (ts.length !== segs.length) continue;
    let score = 0;
    const ok = ts.every((seg, i) => {
      if (seg === segs[i]) return (score += 2), true;
      const names = [...seg.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const re = new RegExp(`^${seg.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`);
      const m = re.exec(segs[i]!);
      if (!names.length || !m || !names.every((n, k) => accepts(t, n, m[k + 1]!))) return false;
      score += seg === `{${names[0]}}` ? 0 : 1;
      return true;
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
  const inner = sandbox ? url.pathname.slice('/sandbox'.length) || '/' : url.pathname;
  const { doc, ajv, id } = await load(sandbox ? 'sandbox' : 'main');
  const template = matchTemplate(Object.keys(doc.paths), inner, (t, name, value) => fits(doc, t, name, value));
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
