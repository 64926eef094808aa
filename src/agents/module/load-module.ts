import { createRequire } from 'node:module';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HangbenchError } from '../../types/errors.js';
import type { ModuleAgentDefinition } from './define-agent.js';

/**
 * Imports an agent module and checks its default export. `.ts`: Node's own type stripping where it has it (Node ≥ 22.6),
 * else the TypeScript compiler of the project the agent lives in, turned into a temporary `.mjs` next to nothing else.
 */
export async function loadAgentModule(file: string): Promise<ModuleAgentDefinition> {
  const imported = (await importModule(file)) as { default?: unknown };
  const definition = imported.default;
  if (
    definition === null ||
    typeof definition !== 'object' ||
    typeof (definition as { create?: unknown }).create !== 'function'
  ) {
    throw new HangbenchError(
      'AGENT',
      `${file}: the default export must be an agent, export default defineAgent({ create(context) { … } }) (got ${describe(definition)})`,
    );
  }
  return definition as ModuleAgentDefinition;
}

async function importModule(file: string): Promise<unknown> {
  if (!/\.[mc]?ts$/.test(file)) return import(pathToFileURL(file).href);
  try {
    return await import(pathToFileURL(file).href);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
  }
  return importTranspiled(file);
}

interface TypeScriptCompiler {
  transpileModule(
    source: string,
    options: { compilerOptions: Record<string, unknown>; fileName: string },
  ): { outputText: string };
  ModuleKind: { ESNext: number };
  ScriptTarget: { ES2022: number };
}

async function importTranspiled(file: string): Promise<unknown> {
  const ts = typescriptFor(file);
  const source = await readFile(file, 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  });
  // Next to the source, so its relative imports and node_modules resolve as they would for the .ts file.
  const dir = await mkdtemp(path.join(path.dirname(file), '.hangbench-agent-')).catch(() =>
    mkdtemp(path.join(tmpdir(), 'hangbench-agent-')),
  );
  const out = path.join(dir, `${path.basename(file).replace(/\.[mc]?ts$/, '')}.mjs`);
  await writeFile(out, outputText);
  try {
    return await import(pathToFileURL(out).href);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function typescriptFor(file: string): TypeScriptCompiler {
  try {
    return createRequire(file)('typescript') as TypeScriptCompiler;
  } catch {
    throw new HangbenchError(
      'AGENT',
      `${file}: this Node (${process.version}) cannot strip TypeScript types and no "typescript" package is installed next to the agent; npm install -D typescript, use Node ≥ 22.6, or write the agent as .mjs`,
    );
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'no default export';
  if (value === null) return 'null';
  return typeof value === 'function' ? 'a function; call it or export the agent it returns' : typeof value;
}
