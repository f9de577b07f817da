import { JSON_DEPTH_MAX } from './limits.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
// [ { opened, ] } closed.

/**
 * Does this JSON text nest arrays and objects deeper than `max`? One pass over the bytes, outside
 * strings only (UTF-8 continuation bytes never equal an ASCII bracket), valid JSON or not: it runs
 * before anything parses the body, so the parse and what follows it never see such a body.
 */
export function nestedTooDeep(bytes: Uint8Array, max = JSON_DEPTH_MAX): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > max) return true;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return false;
}

export const tooDeepMessage = (max = JSON_DEPTH_MAX) => `JSON nested too deeply: arrays and objects may nest at most ${max} levels.`;
