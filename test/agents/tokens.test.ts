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
      ...readdirSync(path.join(projectRoot, 'cases')).map((file) => readFileSync(path.join(projectRoot, 'cases', file), 'utf8')),
      ...readdirSync(path.join(projectRoot, 'prompts'), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8')),
    ];
    // a byte-order mark before a word is one o200k token with it (gpt-tokenizer's shipped table misses this one)
    texts.push('\ufeffusing BOM\n\n', 'ü ñ 中文 🎉 é');
    expect(texts.length).toBeGreaterThan(52);
    // Ordinary text has no 65-character run, so both count exactly.
    for (const text of texts.filter((text) => !/\S{65,}|\s{65,}/.test(text))) expect(countTokens(text)).toBe(reference.encode(text).length);
  });
});
