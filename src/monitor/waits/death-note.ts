import type { ProcessEnd, ProcessSample, TreeSnapshot } from '../../types/process.js';
import { seconds } from '../../types/units.js';
import { waitKind } from '../classify/wait-kind.js';
import { nameOf } from './names.js';

/**
 * Which child of a waiting process ended during the command, and how: the reason a result never comes. A child that
 * died by a signal or exited non-zero is named whoever its parent is; one reaped before it could be seen, only when its
 * parent waits on something other than its children (a pool's parent reading their pipe: a shell reaping its commands
 * one by one is no news). `reason` is the verdict's: a parent it begins with is "its". Null when no such end was seen.
 */
export function deathNote(snapshot: TreeSnapshot, ended: readonly ProcessEnd[], reason: string): string | null {
  const byPid = new Map(snapshot.processes.map((process) => [process.pid, process]));
  const waiting = (end: ProcessEnd): ProcessSample | undefined => {
    const parent = byPid.get(end.ppid);
    return parent && !['running', 'zombie'].includes(waitKind(parent)) ? parent : undefined;
  };
  const failed = ended.filter((end) => waiting(end) && (end.signal !== null || (end.exitCode ?? 0) !== 0));
  const unseen = ended.filter((end) => {
    const parent = waiting(end);
    return end.seen === 'gone' && parent !== undefined && !['child-wait', 'sleep'].includes(waitKind(parent));
  });
  const named = failed.length > 0 ? failed : unseen;
  const [first] = named;
  const parent = first && waiting(first);
  if (!first || !parent) return null;
  const others = named.length - 1;
  const more = others > 0 ? ` (and ${others} more)` : '';
  const whose = reason.startsWith(nameOf(parent)) ? 'its child' : `${nameOf(parent)}'s child`;
  return `${whose} ${nameOf(first)} ${how(first)} at ${seconds(first.endedMs)}${more}`;
}

function how(end: ProcessEnd): string {
  if (end.signal !== null) return `died by ${end.signal}${end.coreDumped ? ' (core dumped)' : ''}`;
  if (end.exitCode !== null) return `exited ${end.exitCode}`;
  return 'ended (reaped before a look: how cannot be seen)';
}
