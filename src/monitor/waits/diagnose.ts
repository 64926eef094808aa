import type { ProcessRef, ProcessSample, TreeSnapshot, WaitRelation } from '../../types/process.js';
import { formatBytes, seconds } from '../../types/units.js';
import { describeSyscall } from '../sample/syscall-names.js';
import { nameOf } from './names.js';
import type { Diagnosis } from './diagnosis.js';
import { explainIdle } from './keepers.js';
import { explainStopped } from './stopped.js';

export type { Diagnosis } from './diagnosis.js';

/** Storage writes below this in an interval are a log line or a lock file, not work being done. */
const STORAGE_PROGRESS_BYTES = 64 * 1024;

/** The first relation that explains the wait, in order of how certain it is. */
export function diagnose(snapshot: TreeSnapshot): Diagnosis | null {
  const all = snapshot.waits?.relations ?? [];
  // an idle relation names a listening socket among what keeps the loop alive: the socket's own relation says less
  const relations = all.filter(
    (relation) =>
      relation.kind !== 'socket' ||
      relation.state !== 'LISTEN' ||
      !all.some((other) => other.kind === 'idle' && other.pid === relation.pid),
  );
  const byPid = new Map(snapshot.processes.map((process) => [process.pid, process]));
  const name = (pid: number, notes: readonly string[] = []): string => {
    const process = byPid.get(pid);
    return process ? nameOf(process, notes) : `pid ${pid}`;
  };
  const refName = (ref: ProcessRef): string => name(ref.pid, refNotes(ref, byPid));
  const order: ReadonlyArray<WaitRelation['kind']> = [
    'lock',
    'stopped',
    'child',
    'pipe',
    'thread',
    'futex',
    'socket',
    'idle',
  ];
  let first: Diagnosis | null = null;
  for (const kind of order) {
    for (const relation of relations.filter((r) => r.kind === kind)) {
      first ??= explain(relation, name, refName, (pid) => byPid.get(pid)?.state ?? 'T');
    }
  }
  const cycle = relations.find((relation) => relation.kind === 'cycle');
  return cycle ? explainCycle(cycle, relations, first, name, byPid) : first;
}

/**
 * The whole cycle in one sentence, from the culprit the first relation names where it is a member (so a case's
 * culprit stays the one it was), each member named in full once and by pid when the cycle comes back to it.
 */
function explainCycle(
  cycle: Extract<WaitRelation, { kind: 'cycle' }>,
  relations: readonly WaitRelation[],
  first: Diagnosis | null,
  name: (pid: number) => string,
  byPid: ReadonlyMap<number, ProcessSample>,
): Diagnosis {
  const at = Math.max(
    0,
    cycle.members.findIndex((member) => member.pid === first?.culprit),
  );
  const members = [...cycle.members.slice(at), ...cycle.members.slice(0, at)];
  const said = new Set<number>();
  const named = (pid: number): string => {
    const text = said.has(pid) ? `pid ${byPid.get(pid)?.innerPid ?? pid}` : name(pid);
    said.add(pid);
    return text;
  };
  const steps = members.map((member, index) => {
    const next = members[(index + 1) % members.length]!.pid;
    const who = index === 0 ? named(member.pid) : 'which';
    switch (member.via) {
      case 'child':
        return `${who} waits for its child ${named(next)} to exit`;
      case 'pipe-read':
        return `${who} reads a pipe that ${named(next)} writes`;
      case 'pipe-write':
        return `${who} writes a full pipe that ${named(next)} should read`;
      case 'lock': {
        const lock = relations.find(
          (r): r is Extract<WaitRelation, { kind: 'lock' }> => r.kind === 'lock' && r.pid === member.pid,
        );
        return `${who} waits for the ${lock?.lock ?? ''} lock on ${lock?.path ?? lock?.file ?? '?'} held by ${named(next)}`;
      }
    }
  });
  return {
    sentence: `wait-for cycle: ${steps.join(', ')}: none of them can move`,
    culprit: members[0]?.pid ?? null,
    classification: first?.classification ?? null,
  };
}

function explain(
  relation: WaitRelation,
  name: (pid: number) => string,
  refName: (ref: ProcessRef) => string,
  stateOf: (pid: number) => string,
): Diagnosis | null {
  switch (relation.kind) {
    case 'stopped':
      return explainStopped(relation, name, stateOf(relation.pid));
    case 'idle':
      return explainIdle(relation, name);
    case 'child': {
      const how =
        relation.child.doing === 'stopped'
          ? 'which is stopped (T): it runs again only on SIGCONT'
          : 'which waits for input nobody sends';
      const classification = relation.child.doing === 'stopped' ? 'stopped' : 'blocked-on-stdin';
      return {
        sentence: `${name(relation.pid)} waits for its child ${name(relation.child.pid)}, ${how}`,
        culprit: relation.child.pid,
        classification,
      };
    }
    case 'lock': {
      const file = relation.path ?? `file ${relation.file}`;
      if (!relation.holder) {
        return {
          sentence: `${name(relation.pid)} waits for the ${relation.lock} lock on ${file}, whose holder (pid ${relation.holderPid ?? '?'}) is gone but left it locked`,
          culprit: relation.pid,
          classification: null,
        };
      }
      const polls = relation.polling ? ' (it sleeps and retries: it polls)' : '';
      return {
        sentence: `${name(relation.pid)} waits for the ${relation.lock} lock on ${file}${polls}, held by ${refName(relation.holder)}${holderState(relation.holder)}`,
        culprit: relation.holder.pid,
        classification: null,
      };
    }
    case 'pipe':
      return explainPipe(relation, name, refName);
    case 'futex': {
      if (relation.threads < 2) {
        return {
          sentence: `${name(relation.pid)}: its only thread waits on a lock (futex) at ~0% CPU; no other thread can release it`,
          culprit: relation.pid,
          classification: 'deadlock-futex',
        };
      }
      const deadlock =
        relation.waiting >= 2
          ? ': two or more threads each waiting on a lock is what a lock-order deadlock looks like'
          : '';
      return {
        sentence: `${name(relation.pid)}: ${relation.waiting} of ${relation.threads} threads wait on locks (futex) at ~0% CPU${deadlock}`,
        culprit: relation.pid,
        classification: 'deadlock-futex',
      };
    }
    case 'thread': {
      const { thread } = relation;
      const label = thread.name === '' ? `thread ${thread.tid}` : `${thread.name} (tid ${thread.tid})`;
      const call = thread.syscall === null ? '' : ` ${describeSyscall(thread.syscall)}`;
      return {
        sentence: `${name(relation.pid)}: its main thread waits on a lock (futex) at ~0% CPU for a thread of its own, and that thread is itself blocked: ${label} in ${thread.wchan}${call}`,
        culprit: relation.pid,
        classification: null,
      };
    }
    case 'socket':
      return explainSocket(relation, name);
    case 'cycle':
      return null;
  }
}

function explainPipe(
  relation: Extract<WaitRelation, { kind: 'pipe' }>,
  name: (pid: number) => string,
  refName: (ref: ProcessRef) => string,
): Diagnosis | null {
  const what = relation.fifo === null ? 'a pipe' : `FIFO ${relation.fifo}`;
  const verb =
    relation.inode === 0 ? 'blocked opening' : relation.direction === 'read' ? 'blocked reading' : 'blocked writing to';
  const end = relation.direction === 'read' ? 'writer' : 'reader';
  const others = relation.others;
  if (others.length === 0) {
    const other = relation.direction === 'read' ? 'writing' : 'reading';
    const why =
      relation.inode === 0
        ? `no process has it open for ${other}, so the open never returns`
        : `it holds the ${end === 'writer' ? 'write' : 'read'} end itself, so ${relation.direction === 'read' ? 'end-of-file never comes' : 'nobody else will drain it'}`;
    return {
      sentence: `${name(relation.pid)} is ${verb} ${what}: ${why}`,
      culprit: relation.pid,
      classification: 'blocked-on-pipe',
    };
  }
  const orphans = others.filter((other) => other.orphan);
  const listed =
    others.slice(0, 3).map(refName).join(', ') + (others.length > 3 ? ` and ${others.length - 3} more` : '');
  const only = others.length === 1 ? `only ${end} is` : `${end}s are`;
  const culprit = (orphans[0] ?? others.find((other) => other.doing !== 'child-wait') ?? others[0])?.pid ?? null;
  if (relation.direction === 'write') {
    const waits = others.every((other) => other.doing === 'child-wait')
      ? ', which waits for it to exit instead of reading'
      : '';
    return {
      sentence: `${name(relation.pid)} is ${verb} a full ${what.replace(/^a /, '')}; its ${only} ${listed}${waits}`,
      culprit: relation.pid,
      classification: 'blocked-on-pipe',
    };
  }
  return {
    sentence: `${name(relation.pid)} is ${verb} ${what} whose ${only} ${listed}`,
    culprit,
    classification: orphans.length > 0 ? 'blocked-on-pipe' : null,
  };
}

function explainSocket(
  relation: Extract<WaitRelation, { kind: 'socket' }>,
  name: (pid: number) => string,
): Diagnosis | null {
  const ends = `${relation.local} → ${relation.peer}`;
  const queued =
    relation.rxQueue > 0 || relation.txQueue > 0
      ? `, ${relation.rxQueue} B unread, ${relation.txQueue} B unsent`
      : ', nothing queued';
  switch (relation.state) {
    case 'SYN_SENT':
      return {
        sentence: `${name(relation.pid)} is blocked connecting to ${relation.peer}: SYN sent, nobody answers`,
        culprit: relation.pid,
        classification: null,
      };
    case 'LISTEN':
      return {
        sentence: `${name(relation.pid)} keeps a server listening on ${relation.local}; its event loop will not end while it listens`,
        culprit: relation.pid,
        classification: null,
      };
    case 'ESTABLISHED': {
      const peer = relation.peerPid === null ? '' : `; the other end is ${name(relation.peerPid)}`;
      return {
        sentence: `${name(relation.pid)} waits on an open connection ${ends} (${relation.state}${queued})${peer}`,
        culprit: relation.pid,
        classification: null,
      };
    }
    default:
      return {
        sentence: `${name(relation.pid)} waits on a socket ${ends} (${relation.state}${queued})`,
        culprit: relation.pid,
        classification: null,
      };
  }
}

function refNotes(ref: ProcessRef, byPid: ReadonlyMap<number, ProcessSample>): string[] {
  const notes: string[] = [];
  if (ref.state === 'T' || ref.state === 't') notes.push('stopped');
  const own = byPid.get(ref.pid);
  if (ref.orphan) notes.push(own && own.sid === own.pid ? 'detached, own session' : 'orphaned, ppid 1');
  else if (own && own.sid === own.pid && own.sid !== byPid.get(own.ppid)?.sid) notes.push('own session');
  if (ref.state === 'Z') notes.push('zombie');
  const process = byPid.get(ref.pid);
  if (notes.length === 0 && process && ref.doing !== 'running')
    notes.push(ref.doing === 'sleep' ? 'sleeping' : ref.doing);
  return notes;
}

function holderState(holder: ProcessRef): string {
  if (holder.doing === 'stopped') return ': it will not release it until it is continued';
  if (holder.doing === 'sleep')
    return '; whether it lets go soon cannot be seen from outside, only how long it has held it';
  if (holder.doing === 'lock') return ', itself waiting for a lock';
  return '';
}

/**
 * Work the kernel shows although the command prints nothing: files growing, data segments moving, storage writes.
 * Only work of the processes the command's end waits on counts: the root and the descendants still attached to it.
 * A process that detached (re-parented, or in a session of its own that no parent waits for) may write all it likes;
 * the command does not end any sooner for it (see `detachedNote`).
 */
export function progressNote(snapshot: TreeSnapshot, rootPid: number): string | null {
  const waits = snapshot.waits;
  if (!waits || waits.intervalMs <= 0) return null;
  const attached = attachedPids(snapshot.processes, rootPid);
  const progress = waits.progress.filter((delta) => attached.has(delta.pid));
  const grew = progress.reduce((sum, delta) => sum + delta.filesGrew, 0);
  const stored = progress.reduce((sum, delta) => sum + delta.writeBytes, 0);
  const interval = seconds(waits.intervalMs);
  if (grew > 0) {
    const top = [...progress].sort((a, b) => b.filesGrew - a.filesGrew)[0];
    const who = top ? nameFor(snapshot, top.pid) : '';
    return `files it has open grew by ${formatBytes(grew)} in ${interval}${who ? ` (${who})` : ''}`;
  }
  // the namespace's segments cannot be told apart by process: a detached process that is the only one left moving keeps them uncounted
  const detachedOnly = waits.progress.length > 0 && progress.length === 0;
  if (waits.netSegments !== null && waits.netSegments > 0 && !detachedOnly)
    return `${waits.netSegments} TCP data segments moved in its network in ${interval}`;
  if (stored >= STORAGE_PROGRESS_BYTES) return `it wrote ${formatBytes(stored)} to storage in ${interval}`;
  return null;
}

/** What detached processes did meanwhile: reported beside a hung verdict, never counted as the command's progress. */
export function detachedNote(snapshot: TreeSnapshot, rootPid: number): string | null {
  const waits = snapshot.waits;
  if (!waits || waits.intervalMs <= 0) return null;
  const attached = attachedPids(snapshot.processes, rootPid);
  const moved = waits.progress.filter(
    (delta) => !attached.has(delta.pid) && (delta.filesGrew > 0 || delta.writeBytes > 0 || delta.wchar > 0),
  );
  const top = [...moved].sort(
    (a, b) => b.filesGrew + b.writeBytes + b.wchar - (a.filesGrew + a.writeBytes + a.wchar),
  )[0];
  if (!top) return null;
  const what =
    top.filesGrew > 0
      ? `grew files it has open by ${formatBytes(top.filesGrew)}`
      : `wrote ${formatBytes(Math.max(top.writeBytes, top.wchar))}`;
  return `${nameFor(snapshot, top.pid)}, detached, ${what} in ${seconds(waits.intervalMs)}: its own work, not the command's progress`;
}

/**
 * The root and every process whose parents lead back to it without crossing into a session of its own: what the
 * command's end waits on. A re-parented process (its parent gone) or one that called setsid is detached.
 */
export function attachedPids(processes: readonly ProcessSample[], rootPid: number): Set<number> {
  const byPid = new Map(processes.map((process) => [process.pid, process]));
  const attached = new Set<number>();
  const isAttached = (process: ProcessSample, depth: number): boolean => {
    if (process.pid === rootPid || attached.has(process.pid)) return true;
    const parent = byPid.get(process.ppid);
    // a child of a root that is not sampled (the launcher a jail enters through) is the command itself
    if (!parent) return process.ppid === rootPid;
    if (depth > processes.length || process.sid !== parent.sid) return false;
    return isAttached(parent, depth + 1);
  };
  for (const process of processes) if (isAttached(process, 0)) attached.add(process.pid);
  return attached;
}

function nameFor(snapshot: TreeSnapshot, pid: number): string {
  const process = snapshot.processes.find((p) => p.pid === pid);
  return process ? nameOf(process) : '';
}
