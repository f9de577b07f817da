// The `xliff` package (a devDependency, read by tests/unit/xliff.test.ts) ships no types: the part the tests use.
declare module 'xliff' {
  interface Unit {
    source: unknown;
    target?: unknown;
    additionalAttributes?: Record<string, string>;
  }
  const xliff: {
    xliff2js(xml: string): Promise<{ sourceLanguage: string; targetLanguage: string; resources: Record<string, Record<string, Unit>> }>;
  };
  export default xliff;
}
