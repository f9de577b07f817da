import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { LANGUAGES } from '../../src/core/languages.ts';
import { apertium, isApertiumInstalled } from '../../src/translate/providers/apertium.ts';
import { pseudo } from './pseudo-locale.ts';
import { markScript } from './translation-engine.ts';

/**
 * OpenAI's chat completions endpoint on a random loopback port, as OpenAI documents it:
 * `POST /v1/chat/completions` with `Authorization: Bearer <key>`, a JSON body (model, messages,
 * temperature, response_format), the `chat.completion` object back, and errors as
 * `{error: {message, type, param, code}}` with OpenAI's statuses and codes. It "translates" the
 * segments of the user message's JSON with Apertium (es, fr, pt-br, where it is installed) or a
 * reversible pseudo-locale, and answers `{"translations": [...]}` as the response format asks.
 * Faults are scripted, each for the next requests it applies to.
 */
export type Fault =
  | { kind: 'rate-limit'; retryAfter?: string; retryAfterMs?: string }
  | { kind: 'quota' }
  | { kind: 'server-error' }
  /** One translation left out of the answer. */
  | { kind: 'drop-one' }
  /** One short line for the whole batch. */
  | { kind: 'summary' }
  /** Content that is not JSON. */
  | { kind: 'not-json' }
  /** The first `<x i="n"></x>` of a batch left out (applies only to a batch with one). */
  | { kind: 'drop-placeholder' };

export interface ChatRequest {
  authorization: string | undefined;
  body: {
    model: string;
    temperature?: number;
    messages: { role: string; content: string }[];
    response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: Record<string, unknown> } };
  };
  segments: string[];
  lang: string;
  /** What the server answered: a status, and the finish reason or error code. */
  answered: string;
}

export interface OpenAIServer {
  /** The base URL, as OPENAI_BASE_URL takes it. */
  baseURL: string;
  key: string;
  model: string;
  requests: ChatRequest[];
  /** Adds a fault for the next requests it applies to (those into `lang` if given), after letting `skip` of them pass. */
  fault(fault: Fault, when?: { times?: number; lang?: string; skip?: number }): void;
  /** Batches of more segments than this are cut off at half their answer (finish_reason "length"). */
  outputLimit: number;
  /** Refuses any temperature but 1, as OpenAI's reasoning models do. */
  defaultTemperatureOnly: boolean;
  close(): Promise<void>;
}

const APERTIUM = isApertiumInstalled() ? apertium() : undefined;
const APERTIUM_LANGS = ['es', 'fr', 'pt-br'];

const byName = new Map(LANGUAGES.map((l) => [l.name, l.code]));

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${randomBytes(12).toString('hex')}`, 'openai-processing-ms': '12', ...headers });
  res.end(JSON.stringify(body));
}

const error = (message: string, type: string, code: string | null, param: string | null = null) => ({ error: { message, type, param, code } });

/** OpenAI's strict mode: every property required, no others allowed, at every level. */
function strictSchemaProblem(schema: Record<string, unknown>): string | undefined {
  if (schema.type === 'object') {
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    if (schema.additionalProperties !== false) return `Invalid schema for response_format 'translations': In context=(), 'additionalProperties' is required to be supplied and to be false.`;
    const required = (schema.required ?? []) as string[];
    for (const key of Object.keys(properties)) if (!required.includes(key)) return `Invalid schema for response_format 'translations': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing '${key}'.`;
    for (const sub of Object.values(properties)) {
      const p = strictSchemaProblem(sub);
      if (p) return p;
    }
  }
  if (schema.type === 'array' && schema.items) return strictSchemaProblem(schema.items as Record<string, unknown>);
  return undefined;
}

export async function startOpenAIServer(options: { model?: string; key?: string } = {}): Promise<OpenAIServer> {
  const model = options.model ?? 'gpt-4o-mini-2024-07-18';
  const key = options.key ?? `sk-test-${randomBytes(12).toString('hex')}`;
  const requests: ChatRequest[] = [];
  const faults: { fault: Fault; times: number; lang?: string; skip: number }[] = [];

  /** The first scripted fault that applies to this request, used up once. */
  function takeFault(segments: string[], lang: string): Fault | undefined {
    const applies = faults.filter((f) => (f.lang === undefined || f.lang === lang) && (f.fault.kind !== 'drop-placeholder' || segments.some((s) => /<x i="\d+"><\/x>/.test(s))));
    // A fault still letting requests pass counts this one and stays quiet.
    const found = applies.filter((f) => (f.skip > 0 ? (f.skip--, false) : true))[0];
    if (!found) return undefined;
    if (--found.times === 0) faults.splice(faults.indexOf(found), 1);
    return found.fault;
  }

  async function chat(req: IncomingMessage, res: ServerResponse, raw: string) {
    const authorization = req.headers.authorization;
    const record: ChatRequest = { authorization, body: { model: '', messages: [] }, segments: [], lang: 'unknown', answered: '' };
    requests.push(record);
    const refuse = (status: number, body: ReturnType<typeof error>) => {
      record.answered = `${status} ${body.error.code ?? body.error.type}`;
      send(res, status, body);
    };
    if (!authorization?.startsWith('Bearer ')) return refuse(401, error("You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", 'invalid_request_error', null));
    if (authorization !== `Bearer ${key}`) return refuse(401, error(`Incorrect API key provided: ${authorization.slice(7, 10)}*****. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_request_error', 'invalid_api_key'));
    if (!/^application\/json/.test(req.headers['content-type'] ?? '')) return refuse(400, error('Invalid content type. The content type must be application/json.', 'invalid_request_error', null));
    let body: ChatRequest['body'];
    try {
      body = record.body = JSON.parse(raw);
    } catch {
      return refuse(400, error("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)", 'invalid_request_error', null));
    }
    if (typeof body.model !== 'string') return refuse(400, error("you must provide a model parameter", 'invalid_request_error', null));
    if (body.model !== model) return refuse(404, error(`The model \`${body.model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found'));
    if (!Array.isArray(body.messages) || body.messages.length === 0) return refuse(400, error("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'invalid_request_error', 'empty_array', 'messages'));
    if (body.temperature !== undefined && !(body.temperature >= 0 && body.temperature <= 2)) return refuse(400, error(`Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got ${body.temperature} instead.`, 'invalid_request_error', 'decimal_above_max_value', 'temperature'));
    if (server.defaultTemperatureOnly && body.temperature !== undefined && body.temperature !== 1) return refuse(400, error(`Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`, 'invalid_request_error', 'unsupported_value', 'temperature'));
    const format = body.response_format;
    if (format?.type === 'json_schema') {
      const problem = !format.json_schema?.name ? "Missing required parameter: 'response_format.json_schema.name'." : format.json_schema.strict ? strictSchemaProblem(format.json_schema.schema) : undefined;
      if (problem) return refuse(400, error(problem, 'invalid_request_error', null, 'response_format'));
    }
    const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
    const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
    const lang = (record.lang = byName.get(/into (.+?) \(/.exec(system)?.[1] ?? '') ?? 'unknown');
    let segments: string[] = [];
    try {
      segments = JSON.parse(user).segments;
    } catch {}
    record.segments = segments;

    const fault = takeFault(segments, lang);
    if (fault?.kind === 'rate-limit') {
      const headers: Record<string, string> = {};
      if (fault.retryAfter) headers['retry-after'] = fault.retryAfter;
      if (fault.retryAfterMs) headers['retry-after-ms'] = fault.retryAfterMs;
      record.answered = '429 rate_limit_exceeded';
      return send(res, 429, error(`Rate limit reached for ${model} in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.`, 'requests', 'rate_limit_exceeded'), headers);
    }
    if (fault?.kind === 'quota') {
      record.answered = '429 insufficient_quota';
      return send(res, 429, error('You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.', 'insufficient_quota', 'insufficient_quota'));
    }
    if (fault?.kind === 'server-error') {
      record.answered = '500 server_error';
      return send(res, 500, error('The server had an error while processing your request. Sorry about that!', 'server_error', null));
    }

    let translations = APERTIUM && APERTIUM_LANGS.includes(lang) ? await APERTIUM.translate(segments, lang) : segments.map((s) => markScript(pseudo(s), lang));
    if (fault?.kind === 'drop-one') translations.splice(Math.floor(translations.length / 2), 1);
    if (fault?.kind === 'summary') translations = [translations.join(' ').split(/\s+/).slice(0, 8).join(' ')];
    if (fault?.kind === 'drop-placeholder') {
      const k = translations.findIndex((t) => /<x i="\d+"><\/x>/.test(t));
      translations[k] = translations[k]!.replace(/<x i="\d+"><\/x>/, '');
    }
    let content = fault?.kind === 'not-json' ? `Here are the translations:\n${translations.join('\n')}` : JSON.stringify({ translations });
    let finish = 'stop';
    if (segments.length > server.outputLimit) {
      content = content.slice(0, Math.floor(content.length / 2));
      finish = 'length';
    }
    record.answered = `200 ${finish}`;
    const promptTokens = Math.ceil((system.length + user.length) / 4);
    const completionTokens = Math.ceil(content.length / 4);
    send(res, 200, {
      id: `chatcmpl-${randomBytes(15).toString('base64url')}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null, annotations: [] }, logprobs: null, finish_reason: finish }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      service_tier: 'default',
      system_fingerprint: 'fp_folio_test',
    });
  }

  const http = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(res, 404, error(`Invalid URL (${req.method} ${req.url})`, 'invalid_request_error', null));
      chat(req, res, raw).catch((e: Error) => send(res, 500, error(`test server: ${e.message}`, 'server_error', null)));
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as { port: number };
  const server: OpenAIServer = {
    baseURL: `http://127.0.0.1:${port}/v1`,
    key,
    model,
    requests,
    outputLimit: Infinity,
    defaultTemperatureOnly: false,
    fault: (fault, when = {}) => void faults.push({ fault, times: when.times ?? 1, lang: when.lang, skip: when.skip ?? 0 }),
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
  return server;
}
