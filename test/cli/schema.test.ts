import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseJsonSchema, configJsonSchema, summaryJsonSchema, traceEventJsonSchema } from '../../src/cli/main.js';

describe('schema/case.schema.json', () => {
  it('is the JSON Schema generated from the zod case schema (run `npm run schema` after changing it)', async () => {
    const committed = JSON.parse(
      await readFile(path.resolve(import.meta.dirname, '../../schema/case.schema.json'), 'utf8'),
    ) as unknown;
    expect(committed).toEqual(caseJsonSchema());
  });
});

describe('schema/config.schema.json', () => {
  it('is the JSON Schema generated from the zod config schema (run `npm run schema` after changing it)', async () => {
    const committed = JSON.parse(
      await readFile(path.resolve(import.meta.dirname, '../../schema/config.schema.json'), 'utf8'),
    ) as unknown;
    expect(committed).toEqual(configJsonSchema());
  });
});

describe('schema/trace-event.schema.json and schema/summary.schema.json', () => {
  it('are generated from the zod event union and summary schema (run `npm run schema` after changing them)', async () => {
    const read = async (name: string) =>
      JSON.parse(await readFile(path.resolve(import.meta.dirname, '../../schema', name), 'utf8')) as unknown;
    expect(await read('trace-event.schema.json')).toEqual(traceEventJsonSchema());
    expect(await read('summary.schema.json')).toEqual(summaryJsonSchema());
  });
});
