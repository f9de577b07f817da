import { readFile } from 'node:fs/promises';

/** A JSON file's value, or undefined when it is missing (or holds null). */
export const readJson = async <T>(file: string): Promise<T | undefined> => JSON.parse(await readFile(file, 'utf8').catch(() => 'null')) ?? undefined;
