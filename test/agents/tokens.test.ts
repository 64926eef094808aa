import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const loaded = () => Object.keys(require.cache).some((file) => file.includes(`${path.sep}gpt-tokenizer${path.sep}`));

describe('countTokens', () => {
  it('loads the o200k ranks at the first count, not at import', async () => {
    const { countTokens } = await import('../../src/agents/tokens.js');
    expect(countTokens('')).toBe(0);
    expect(loaded()).toBe(false);
    expect(countTokens('hello world')).toBe(2);
    expect(loaded()).toBe(true);
  });

  it('agrees with js-tiktoken (the reference o200k implementation) on every case issue and prompt template', async () => {
    const { countTokens } = await import('../../src/agents/tokens.js');
    const reference = new Tiktoken(o200k);
    const texts = [
      ...readdirSync(path.join(projectRoot, 'cases')).map((file) =>
        readFileSync(path.join(projectRoot, 'cases', file), 'utf8'),
      ),
      ...readdirSync(path.join(projectRoot, 'prompts'), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8')),
    ];
    // a byte-order mark before a word is one o200k token with it (gpt-tokenizer's shipped table misses this one)
    texts.push('\ufeffusing BOM\n\n', 'ü ñ 中文 🎉 é');
    // and two texts with a 65-character run, which is counted in 64-character pieces
    texts.push(`key: ${'a1B2'.repeat(50)}\nnext line`, `indent${' '.repeat(130)}end`);
    const LONG_RUN = /\S{65,}|\s{65,}/g;
    const ordinary = texts.filter((text) => text.match(LONG_RUN) === null);
    const withRuns = texts.filter((text) => text.match(LONG_RUN) !== null);
    // Ordinary text (every case file and prompt without a 65-character run, such as a long URL in a case's
    // source:) counts exactly as the reference does.
    expect(ordinary.length).toBeGreaterThan(52);
    for (const text of ordinary) expect(countTokens(text)).toBe(reference.encode(text).length);
    // A run costs at most one token per 64 characters more or less than the reference says (tokens.ts's promise).
    expect(withRuns).toEqual(expect.arrayContaining(texts.slice(-2)));
    for (const text of withRuns) {
      const runChars = [...text.matchAll(LONG_RUN)].reduce((sum, run) => sum + run[0].length, 0);
      expect(Math.abs(countTokens(text) - reference.encode(text).length)).toBeLessThanOrEqual(Math.ceil(runChars / 64));
    }
  });
});
