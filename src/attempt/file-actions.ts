import type { ObservationBody } from '../agents/protocol.js';
import type { Sandbox } from '../sandbox/index.js';
import type { Action } from '../types/actions.js';
import type { TraceWriter } from '../trace/writer.js';
import { failure } from './observations.js';

/** What the agent is shown of a file it reads; the rest is counted, not sent. */
const READ_LIMIT = 64 * 1024;

type FileAction = Extract<Action, { type: 'read' | 'write' | 'edit' }>;

/**
 * The agent's file actions in the sandbox's workspace: read (capped), write, and edit (the old text must occur
 * exactly once). `onWrite` is told of every write: the session stops counting onsets after the first edit.
 */
export async function fileAction(
  action: FileAction,
  sandbox: Sandbox,
  trace: TraceWriter,
  onWrite: () => void,
): Promise<ObservationBody> {
  const write = async (file: string, content: string, via: 'write' | 'edit'): Promise<ObservationBody> => {
    const bytes = await sandbox.writeFile(file, content);
    onWrite();
    trace.write({ type: 'file.write', path: file, bytes, via });
    return { type: 'result', action: via, ok: true, message: `wrote ${bytes} bytes to ${file}` };
  };
  switch (action.type) {
    case 'read': {
      const content = await sandbox.readFile(action.path);
      const shown =
        content.length > READ_LIMIT
          ? `${content.slice(0, READ_LIMIT)}\n[… ${content.length - READ_LIMIT} more characters]`
          : content;
      return {
        type: 'result',
        action: 'read',
        ok: true,
        message: `${action.path}: ${content.length} characters`,
        content: shown,
      };
    }
    case 'write':
      return write(action.path, action.content, 'write');
    case 'edit': {
      const current = await sandbox.readFile(action.path);
      const count = current.split(action.old).length - 1;
      if (count !== 1)
        return failure(action, `edit needs the old text exactly once in ${action.path}; found it ${count} times`);
      return write(
        action.path,
        current.replace(action.old, () => action.new),
        'edit',
      );
    }
  }
}
