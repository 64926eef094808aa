import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseJsonSchema, configJsonSchema } from '../../src/cli/main.js';

describe('schema/case.schema.json', () => {
  it('is the JSON Schema generated from the zod case schema (run `npm run schema` after changing it)', async () => {
    const committed = JSON.parse(await readFile(path.resolve(import.meta.dirname, '../../schema/case.schema.json'), 'utf8')) as unknown;
    expect(committed).toEqual(caseJsonSchema());
  });
});

describe('schema/config.schema.json', () => {
  it('is the JSON Schema generated from the zod config schema (run `npm run schema` after changing it)', async () => {
    const committed = JSON.parse(await readFile(path.resolve(import.meta.dirname, '../../schema/config.schema.json'), 'utf8')) as unknown;
    expect(committed).toEqual(configJsonSchema());
  });
});
