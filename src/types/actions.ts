import { z } from 'zod';
import type { Terminal } from './terminal.js';

/**
 * Named keys an agent can press with `input {keys}`, as a terminal (xterm) sends them. Any single character types
 * itself (`q`, `y`, `:`), and `ctrl-a` … `ctrl-z` send control codes (in a pty, `ctrl-c` becomes SIGINT for the
 * foreground process group and `ctrl-d` ends a line-mode read, through the line discipline).
 */
const NAMED_KEYS = {
  enter: '\r',
  tab: '\t',
  escape: '\x1b',
  backspace: '\x7f',
  space: ' ',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  home: '\x1b[H',
  end: '\x1b[F',
  insert: '\x1b[2~',
  delete: '\x1b[3~',
  pageup: '\x1b[5~',
  pagedown: '\x1b[6~',
} as const;

const KEY_NAMES = [...Object.keys(NAMED_KEYS), 'ctrl-a … ctrl-z', 'any single character'] as const;

/** Keys that a terminal in application cursor mode sends as `ESC O x` instead of `ESC [ x`. */
const CURSOR_KEYS: ReadonlySet<string> = new Set(['up', 'down', 'right', 'left', 'home', 'end']);
const CTRL_KEY = /^ctrl-([a-z])$/;

function isKeyName(key: string): boolean {
  return Object.hasOwn(NAMED_KEYS, key) || CTRL_KEY.test(key) || [...key].length === 1;
}

export interface KeyContext {
  /** how the command's stdin is wired: on a pipe there is no terminal, so Enter is a newline. */
  readonly terminal: Terminal;
  /** the program switched the terminal to application cursor keys (DECCKM, `ESC [ ? 1 h`): arrows are `ESC O A`. */
  readonly applicationCursor?: boolean;
}

/** The bytes a terminal sends for a key (see isKeyName); throws for an unknown name. */
export function keyBytes(key: string, context: KeyContext): string {
  if (key === 'enter' && context.terminal === 'pipe') return '\n';
  if (Object.hasOwn(NAMED_KEYS, key)) {
    const bytes = NAMED_KEYS[key as keyof typeof NAMED_KEYS];
    return context.applicationCursor && CURSOR_KEYS.has(key) ? `\x1bO${bytes.slice(2)}` : bytes;
  }
  const ctrl = CTRL_KEY.exec(key);
  if (ctrl) return String.fromCharCode(ctrl[1]!.charCodeAt(0) - 96);
  if ([...key].length === 1) return key;
  throw new Error(`unknown key "${key}"`);
}

const KeySchema = z.string().refine(isKeyName, {
  error: (issue) => `unknown key ${JSON.stringify(issue.input)}; use one of ${KEY_NAMES.join(', ')}`,
});

const CommandId = z
  .number()
  .int()
  .positive()
  .describe('the command id that run returned (#N); default: the foreground command, else the newest');
const Seconds = z.number().positive().max(86_400);

/** The agent actions (docs/agent-protocol.md describes them for agent authors). zod because external agents send them as JSON. */
export const ActionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('run'), command: z.string().min(1), background: z.boolean().optional() }),
  z.strictObject({
    type: z.literal('wait'),
    id: CommandId.optional(),
    /** seconds: return with the command's status if it is still running by then. */
    timeout: Seconds.optional(),
    /** seconds: return with the status once the output has been still this long. */
    until_quiet: Seconds.optional(),
  }),
  z.strictObject({ type: z.literal('poll'), id: CommandId.optional() }),
  z.strictObject({
    type: z.literal('kill'),
    id: CommandId.optional(),
    signal: z.enum(['SIGINT', 'SIGTERM', 'SIGKILL']).optional(),
  }),
  z.strictObject({
    type: z.literal('input'),
    text: z.string().optional(),
    keys: z
      .array(KeySchema)
      .optional()
      .describe(`keys pressed after text, in order: ${KEY_NAMES.join(', ')}`),
    eof: z.boolean().optional(),
  }),
  z.strictObject({ type: z.literal('read'), path: z.string().min(1) }),
  z.strictObject({ type: z.literal('write'), path: z.string().min(1), content: z.string() }),
  z.strictObject({ type: z.literal('edit'), path: z.string().min(1), old: z.string().min(1), new: z.string() }),
  z.strictObject({ type: z.literal('finish'), summary: z.string().default('') }),
]);
export type Action = z.infer<typeof ActionSchema>;
export type ActionType = Action['type'];
