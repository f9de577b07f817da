import OpenAI, { APIConnectionError, APIError } from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { language, TRANSLATED_CODES } from '../../core/languages.ts';
import { QuotaError, RetryableError, SetupError, type Provider, type SegmentContext } from '../provider.ts';
import { fixedTermsIn, type Glossary } from '../glossary.ts';
import { retryAfterMs } from '../retry-after.ts';
import { REQUEST_TIMEOUT_MS } from './http.ts';

/**
 * Any OpenAI-compatible chat endpoint (OpenAI, Azure's v1 endpoint, Ollama, vLLM, llama.cpp's
 * server) through the official `openai` client. Segments go in and come back as JSON held to a
 * schema, at temperature 0; the answer must have one translation per segment, in order.
 */

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Local servers (Ollama, vLLM, llama.cpp) listen on loopback by default and want no key. */
const isLoopback = (url: URL) => url.hostname === 'localhost' || url.hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(url.hostname);

const SCHEMA = {
  type: 'object',
  properties: { translations: { type: 'array', items: { type: 'string' } } },
  required: ['translations'],
  additionalProperties: false,
} as const;

/**
 * The system prompt: the language, the answer's shape, the tags; the glossary's fixed translations
 * of the terms these segments hold (`terms`), which a model inflects as the sentence needs; what
 * `context` in the user message is, when it is there.
 */
function systemPrompt(lang: string, count: number, note?: string, terms: [string, string][] = [], context = false): string {
  const { name, native_name } = language(lang);
  const lines = [
    `You are a professional translator. Translate each segment from English into ${name} (${native_name}).`,
    'The user message is a JSON object {"segments": [...]}. Answer with a JSON object {"translations": [...]}: one translation per segment, in the same order.',
    `There are ${count} segments: answer with exactly ${count} translations. Never summarise, merge, split, add or drop segments; translate every sentence of every segment, headings and short ones too.`,
    'Segments are tagged text. Keep every tag exactly: an empty placeholder such as <x i="1"></x> stands for code, an image or HTML and must come back unchanged; <a i="1">...</a> is a link: keep it around the translated words of its anchor; <em>, <strong> and <del> go around the translated words they mark. Never translate, add, drop or escape a tag.',
    'Answer with the JSON object only.',
  ];
  if (terms.length) lines.push(`Translate these terms exactly so, inflected as the ${name} sentence needs: ${terms.map(([term, t]) => `"${term}" as "${t}"`).join('; ')}.`);
  if (context)
    lines.push(
      'The user message also has "context": one item per segment, null or an object that is never translated. Its "paragraph" is the whole paragraph the segment is one sentence of: translate the sentence alone, in words that fit the paragraph. Its "example" is a similar English segment with its earlier translation: keep to its wording where the English is the same.',
    );
  if (note) lines.push(`Your previous answer was refused: ${note}. Answer again, following every rule above.`);
  return lines.join('\n');
}

/** What is wrong with an answer's content, or its translations. */
function readAnswer(content: string | null | undefined, count: number): { translations: string[] } | { problem: string } {
  if (!content) return { problem: 'it was empty' };
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    return { problem: 'it was not valid JSON' };
  }
  const list = (data as { translations?: unknown } | null)?.translations;
  if (!Array.isArray(list) || !list.every((t) => typeof t === 'string')) return { problem: 'it was not an object {"translations": [strings]}' };
  if (list.length !== count) return { problem: `it had ${list.length} ${list.length === 1 ? 'item' : 'items'} for ${count} segments` };
  return { translations: list };
}

/** The client's errors as Folio's: what to retry, what stops the run, what to fix first. */
function classify(e: unknown, model: string, baseURL: string): Error {
  if (e instanceof APIConnectionError) return new RetryableError(`no answer from ${baseURL} (${e.message})`);
  if (!(e instanceof APIError)) return e as Error;
  const said = `${e.status} ${e.message.replace(/^\d+ /, '')}`;
  if (e.status === 429 && e.code === 'insufficient_quota') return new QuotaError(`the quota is used up (${said})`);
  if (e.status === 429 || e.status === 408 || e.status === 409 || (e.status ?? 0) >= 500) return new RetryableError(said, retryAfterMs(e.headers));
  if (e.status === 401) return new SetupError(`openai: ${baseURL} refused the key (${said}): check OPENAI_API_KEY`);
  if (e.status === 403) return new SetupError(`openai: ${baseURL} does not allow this (${said})`);
  if (e.status === 404) return new SetupError(`openai: ${baseURL} has no model "${model}" (${said}): check models.openai in translation.yaml or FOLIO_OPENAI_MODEL`);
  return new Error(said);
}

export interface OpenAISettings {
  /** `models.openai` in content/translation.yaml; FOLIO_OPENAI_MODEL wins over it. */
  model?: string;
  /** The per-request timeout (the client's own default is 10 minutes). */
  timeoutMs?: number;
  /** The content's glossary: its fixed translations go in the prompt. */
  glossary?: Glossary;
}

export function openai(env: NodeJS.ProcessEnv, settings: OpenAISettings = {}): Provider {
  const chosen = env.FOLIO_OPENAI_MODEL || settings.model;
  if (!chosen) throw new SetupError('openai needs a model: set models.openai in content/translation.yaml (or FOLIO_OPENAI_MODEL), e.g. gpt-4o-mini, or the name your server gives it');
  const model: string = chosen;
  const baseURL = env.OPENAI_BASE_URL || DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new SetupError(`OPENAI_BASE_URL is not a URL: ${baseURL}`);
  }
  const apiKey = env.OPENAI_API_KEY;
  if (!apiKey && !isLoopback(url)) throw new SetupError(`OPENAI_API_KEY is not set (${url.host} needs a key; a server on localhost needs none)`);
  // Folio's retry policy (send.ts) is the one in effect, with the client's own turned off.
  const client = new OpenAI({ apiKey: apiKey || 'no-key', baseURL, maxRetries: 0, timeout: settings.timeoutMs ?? REQUEST_TIMEOUT_MS, organization: env.OPENAI_ORG_ID ?? null, project: env.OPENAI_PROJECT_ID ?? null });

  // Reasoning models (o-series, gpt-5) take only their default temperature: learnt from the first refusal.
  let temperature: number | undefined = 0;
  const usage = { inputTokens: 0, outputTokens: 0 };

  async function ask(segments: readonly string[], lang: string, note?: string, context?: readonly (SegmentContext | undefined)[]): Promise<ChatCompletion.Choice> {
    // The fixed terms these segments hold, each once.
    const terms = [...new Map(segments.flatMap((s) => fixedTermsIn(settings.glossary, s, lang))).entries()];
    const notes = context?.map((c) => (c ? { ...(c.paragraph ? { paragraph: c.paragraph } : {}), ...(c.similar ? { example: { english: c.similar.source, translation: c.similar.translation } } : {}) } : null));
    const body: ChatCompletionCreateParamsNonStreaming = {
      model,
      ...(temperature === undefined ? {} : { temperature }),
      messages: [
        { role: 'system', content: systemPrompt(lang, segments.length, note, terms, notes !== undefined) },
        { role: 'user', content: JSON.stringify(notes ? { segments, context: notes } : { segments }) },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'translations', strict: true, schema: SCHEMA } },
    };
    try {
      const answer = await client.chat.completions.create(body);
      usage.inputTokens += answer.usage?.prompt_tokens ?? 0;
      usage.outputTokens += answer.usage?.completion_tokens ?? 0;
      const choice = answer.choices[0];
      if (!choice) throw new RetryableError(`${baseURL} answered without a choice`);
      return choice;
    } catch (e) {
      if (e instanceof APIError && e.status === 400 && e.param === 'temperature' && temperature !== undefined) {
        temperature = undefined;
        return ask(segments, lang, note, context);
      }
      throw classify(e, model, baseURL);
    }
  }

  async function translate(segments: readonly string[], lang: string, note?: string, context?: readonly (SegmentContext | undefined)[]): Promise<string[]> {
    if (!TRANSLATED_CODES.includes(lang)) throw new SetupError(`openai does not translate into ${lang}`);
    let refused: string | undefined;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const choice = await ask(segments, lang, refused ?? note, context);
      // Cut off by the model's output limit: the halves fit where the whole did not.
      if (choice.finish_reason === 'length') {
        if (segments.length === 1) throw new Error(`${model}'s answer for one segment was cut off at its output limit`);
        const half = Math.ceil(segments.length / 2);
        return [...(await translate(segments.slice(0, half), lang, note, context?.slice(0, half))), ...(await translate(segments.slice(half), lang, note, context?.slice(half)))];
      }
      if (choice.finish_reason === 'content_filter') throw new Error(`${model} withheld its answer (content filter)`);
      const read = readAnswer(choice.message.content, segments.length);
      if ('translations' in read) return read.translations;
      refused = choice.message.refusal ? `it was a refusal ("${choice.message.refusal}")` : read.problem;
    }
    // At temperature 0 the same request gets the same answer: trying again later would not help.
    throw new Error(`${model}'s answer for ${segments.length} segments was refused twice: ${refused}`);
  }

  return {
    id: 'openai',
    version: model,
    supports: (lang) => (TRANSLATED_CODES.includes(lang) ? 'direct' : false),
    // A model's output limit (often 4,096 or 16,384 tokens) and its attention over a long list both argue for modest batches.
    limits: { segments: 40, chars: 12_000 },
    translate,
    usage,
    readsExamples: true,
    takesFixedTerms: true,
  };
}
