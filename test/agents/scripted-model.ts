import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChatRequestBody, RecordedRequest, ScriptedReply, ScriptedUsage } from '../support/fake-openai-server.js';

/** A scripted "model" for end-to-end runs of py-pipe-deadlock: decides from the conversation it is sent, like a model would. */

export const REPO = path.resolve(import.meta.dirname, '../..');
export const CASE_FILE = path.join(REPO, 'cases/py-pipe-deadlock.yaml');
const FIXTURE = path.join(REPO, 'fixtures/hanging-programs/py-pipe-deadlock');

export interface Fix {
  readonly path: string;
  readonly old: string;
  readonly new: string;
}

/** The one hunk of solution.patch as an edit: the removed lines become `old`, the added ones `new`. */
export async function fixFromSolutionPatch(): Promise<Fix> {
  const patch = await readFile(path.join(FIXTURE, 'solution.patch'), 'utf8');
  const lines = patch.split('\n');
  const file = lines.find((line) => line.startsWith('+++ '))?.replace(/^\+\+\+ b\//, '') ?? '';
  const body = lines.filter((line) => !line.startsWith('---') && !line.startsWith('+++'));
  return {
    path: file,
    old: body
      .filter((line) => line.startsWith('-'))
      .map((line) => line.slice(1))
      .join('\n'),
    new: body
      .filter((line) => line.startsWith('+'))
      .map((line) => line.slice(1))
      .join('\n'),
  };
}

type Message = ChatRequestBody['messages'][number];

function calls(messages: readonly Message[]): string[] {
  return messages
    .flatMap((message) => (message.tool_calls ?? []) as Array<{ function: { name: string } }>)
    .map((call) => call.function.name);
}

/**
 * run the repro → wait while output flows → kill at the first quiet tick after the onset line →
 * edit the fix → run again → wait for its exit → finish.
 */
export function solvingModel(fix: Fix, usage?: ScriptedUsage): (request: RecordedRequest) => ScriptedReply {
  return ({ body }) => {
    const made = calls(body.messages);
    const last = body.messages.at(-1);
    const text = typeof last?.content === 'string' ? last.content : '';
    const reply = (name: string, args: object = {}): ScriptedReply => ({
      toolCalls: [{ name, arguments: args as Record<string, unknown> }],
      ...(usage ? { usage } : {}),
    });
    if (made.length === 0) return reply('run', { command: 'python3 build.py' });
    // A call the agent rejected (bad arguments): send it again, well-formed this time.
    if (/^error: (the arguments|invalid arguments)/.test(text)) return reply('run', { command: 'python3 build.py' });
    const lastCall = made.at(-1);
    if (lastCall === 'kill') return reply('edit', fix);
    if (lastCall === 'edit') return reply('run', { command: 'python3 build.py' });
    // The re-run ended: its exit, or (when it ended while the model was answering a tick) a wait that found nothing running.
    if (/^command #\d+ (exited|was ended)/.test(text) || text.startsWith('error: nothing is running'))
      return reply('finish', { summary: 'build.py waited before reading the pipe; it now uses communicate()' });
    // Past the system prompt and the task (whose issue text quotes the onset line), ticks arrive as tool results or user messages.
    // Ticks that fire while the model is answering arrive merged with the next, output included: the onset line is seen.
    const sawOnset = body.messages.slice(2).some((message) => String(message.content).includes('compiling 12 units'));
    const fixed = made.includes('edit');
    return !fixed && sawOnset && text.includes('no new output') ? reply('kill') : reply('wait');
  };
}
