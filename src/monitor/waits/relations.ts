import { statSync } from 'node:fs';
import type { ProcessRef, ProcessSample, WaitRelation } from '../../types/process.js';
import type { FdLink } from '../sample/proc-details.js';
import { waitKind, type WaitKind } from '../classify/wait-kind.js';
import { accessMode, blockedOn, type BlockedOn } from './blocked-on.js';
import { LOCK_WAIT, lockRelations } from './lock-relations.js';
import { findCycle } from './cycles.js';
import { idleRelation } from './keepers.js';
import { stoppedRelations } from './stopped.js';
import { socketsOf, type SocketTables } from './socket-tables.js';
import { distinct } from '../../types/distinct.js';

/** What the relations need of a sampled process beyond its ProcessSample (kept by the sampler, never traced). */
export interface ProcExtras {
  readonly links: readonly FdLink[];
  readonly syscallArgs: readonly number[];
}

/** At most this many blocked processes are followed a sample: a tree of hundreds costs no more than a few. */
const MAX_FOLLOWED = 16;
/** A poller woke at least this often since the previous sample (schedstat's run count) while it sleeps now. */
const MIN_POLL_WAKEUPS = 2;
const POLL_KINDS: ReadonlySet<WaitKind> = new Set(['sleep', 'child-wait', 'event-loop', 'other']);
// TCP waits only: unix sockets have no peer or queue in /proc, and reading the host's unix table costs milliseconds.
const SOCKET_WAIT = /inet_wait_for_connect|wait_woken|sk_wait_data|inet_csk_accept|tcp_|sk_stream_wait/;

/**
 * Wait-for relations among one command's processes: who holds the other end of the pipe a process blocks on, who
 * holds the lock it waits for, its socket's state and peer, futex-blocked threads, a parent waiting on a stuck child.
 */
export function findRelations(
  processes: readonly ProcessSample[],
  extras: ReadonlyMap<number, ProcExtras>,
  rootPid: number,
  /** per pid, how often its main thread was put on a CPU since the previous sample (absent for one first seen now). */
  wakeups: ReadonlyMap<number, number> = new Map(),
): WaitRelation[] {
  const byPid = new Map(processes.map((process) => [process.pid, process]));
  const ref = (process: ProcessSample): ProcessRef => ({
    pid: process.pid,
    command: process.command,
    state: process.state,
    orphan: process.pid !== rootPid && !byPid.has(process.ppid),
    doing: LOCK_WAIT.test(process.wchan) ? 'lock' : waitKind(process),
  });
  const refs = (pids: readonly number[]): ProcessRef[] =>
    pids.flatMap((pid) => {
      const process = byPid.get(pid);
      return process ? [ref(process)] : [];
    });
  const lookup: TreeLookup = { holders: new PipeHolders(processes, extras), sockets: new SocketTablesCache(), refs };
  const relations: WaitRelation[] = [];
  let followed = 0;
  for (const process of processes) {
    const kind = waitKind(process);
    const stuckThread = kind === 'other' && process.cpuPercent < 5 ? threadBlockedElsewhere(process) : undefined;
    if (stuckThread) {
      relations.push(threadRelation(process, stuckThread));
      continue;
    }
    if (kind === 'futex' && process.cpuPercent < 5) {
      relations.push({
        kind: 'futex',
        pid: process.pid,
        waiting: 1 + process.threadWchans.filter((w) => /futex/.test(w)).length,
        threads: process.threads,
      });
      continue;
    }
    if (kind === 'child-wait') {
      const stuck = process.children
        .map((pid) => byPid.get(pid))
        .find((child) => child && ['stopped', 'stdin-read'].includes(waitKind(child)));
      if (stuck) relations.push({ kind: 'child', pid: process.pid, child: ref(stuck) });
      continue;
    }
    // A read on the agent's stdin is the classifier's already; the relations are for what waits on another process.
    if (!['pipe-read', 'pipe-write', 'event-loop', 'other'].includes(kind) || followed >= MAX_FOLLOWED) continue;
    const args = extras.get(process.pid)?.syscallArgs ?? [];
    const blocked = blockedOn(process, args);
    if (!blocked) continue;
    followed++;
    relations.push(...blockedRelations(process, kind, blocked, extras.get(process.pid)?.links ?? [], lookup));
    const idle = kind === 'event-loop' ? idleRelation(process, args, () => lookup.sockets.tables(process.pid)) : null;
    if (idle) relations.push(idle);
  }
  const pollers = processes.filter(
    (process) =>
      process.state === 'S' &&
      process.cpuPercent < 5 &&
      (wakeups.get(process.pid) ?? 0) >= MIN_POLL_WAKEUPS &&
      POLL_KINDS.has(waitKind(process)),
  );
  relations.push(...lockRelations({ processes, byPid, links: (pid) => extras.get(pid)?.links ?? [], ref }, pollers));
  // a process polling several fds of one pipe (stdout and stderr of one child) gives one relation per pipe
  const unique = distinct(relations);
  unique.push(...stoppedRelations(processes, unique, ref, (pid) => extras.get(pid)?.syscallArgs ?? []));
  const cycle = findCycle(processes, unique);
  return cycle ? [...unique, cycle] : unique;
}

/** What following a blocked process looks up: who holds which descriptor, the socket tables, the tree's processes. */
interface TreeLookup {
  readonly holders: PipeHolders;
  readonly sockets: SocketTablesCache;
  readonly refs: (pids: readonly number[]) => ProcessRef[];
}

type OtherThread = NonNullable<ProcessSample['otherThreads']>[number];

function threadRelation(process: ProcessSample, stuckThread: OtherThread): WaitRelation {
  return {
    kind: 'thread',
    pid: process.pid,
    thread: {
      tid: stuckThread.tid,
      name: stuckThread.name === process.command ? '' : stuckThread.name,
      wchan: stuckThread.wchan,
      syscall: stuckThread.syscall,
    },
  };
}

/** The relations of a process blocked in a syscall: the FIFO it is opening, then each pipe or socket it waits on. */
function blockedRelations(
  process: ProcessSample,
  kind: WaitKind,
  blocked: BlockedOn,
  fdLinks: readonly FdLink[],
  lookup: TreeLookup,
): WaitRelation[] {
  const relations: WaitRelation[] = [];
  const links = new Map(fdLinks.map((link) => [link.fd, link.target]));
  if (blocked.opening !== null) {
    relations.push({
      kind: 'pipe',
      pid: process.pid,
      direction: blocked.openingFor,
      inode: 0,
      fifo: blocked.opening,
      others: lookup.refs(lookup.holders.ofPath(blocked.opening, process.pid)),
      selfHeld: false,
    });
  }
  for (const { fd, direction } of blocked.fds) {
    const target = links.get(fd);
    if (target === undefined) continue;
    const pipe = /^pipe:\[(\d+)\]$/.exec(target);
    if (pipe) {
      const relation = pipeRelation(process, kind, Number(pipe[1]), direction, links, lookup);
      if (relation) relations.push(relation);
      continue;
    }
    const socket = /^socket:\[(\d+)\]$/.exec(target);
    if (socket && (SOCKET_WAIT.test(process.wchan) || kind === 'event-loop')) {
      const relation = socketRelation(process, Number(socket[1]), lookup);
      if (relation) relations.push(relation);
    }
  }
  return relations;
}

/** Who holds the other end of the pipe a process blocks on, or the process itself on another fd; null when neither. */
function pipeRelation(
  process: ProcessSample,
  kind: WaitKind,
  inode: number,
  direction: 'read' | 'write',
  links: ReadonlyMap<number, string>,
  lookup: TreeLookup,
): WaitRelation | null {
  const others = lookup.refs(lookup.holders.otherEnd(inode, direction, process.pid));
  // A read cannot block on a pipe nobody can write: an empty list means this process (an event loop's self-pipe)
  // or someone outside the tree (the harness) holds the other end. Only the first is a finding, and only for a
  // process blocked on that pipe alone.
  const selfHeld =
    others.length === 0 && kind !== 'event-loop' && lookup.holders.holdsOtherEnd(process.pid, inode, direction, links);
  return others.length > 0 || selfHeld
    ? { kind: 'pipe', pid: process.pid, direction, inode, fifo: null, others, selfHeld }
    : null;
}

/** The TCP socket a process waits on: state, queues, peer (and its pid if in the tree); null for none or a unix one. */
function socketRelation(process: ProcessSample, inode: number, lookup: TreeLookup): WaitRelation | null {
  const line = lookup.sockets.tables(process.pid).get(inode);
  if (!line || line.proto === 'unix') return null;
  const peerPid =
    line.state === 'ESTABLISHED'
      ? lookup.holders.socketOwner(lookup.sockets.tables(process.pid).peerInode(line))
      : null;
  return {
    kind: 'socket',
    pid: process.pid,
    proto: line.proto,
    state: line.state,
    local: line.local,
    peer: line.peer,
    rxQueue: line.rxQueue,
    txQueue: line.txQueue,
    peerPid,
  };
}

/** Who holds which pipe (and FIFO path, and socket) in the tree, with the access mode read only where asked. */
class PipeHolders {
  private readonly byTarget = new Map<string, Array<{ pid: number; fd: number }>>();

  constructor(processes: readonly ProcessSample[], extras: ReadonlyMap<number, ProcExtras>) {
    for (const process of processes) {
      if (process.state === 'Z') continue;
      for (const link of extras.get(process.pid)?.links ?? []) {
        this.byTarget.set(link.target, [...(this.byTarget.get(link.target) ?? []), { pid: process.pid, fd: link.fd }]);
      }
    }
  }

  /** Processes other than `self` holding the other end of pipe `inode`: writers for a reader, readers for a writer. */
  otherEnd(inode: number, direction: 'read' | 'write', self: number): number[] {
    const want = direction === 'read' ? 'write' : 'read';
    const pids = new Set<number>();
    for (const { pid, fd } of this.byTarget.get(`pipe:[${inode}]`) ?? []) {
      if (pid === self || pids.has(pid)) continue;
      const mode = accessMode(pid, fd);
      if (mode === want || mode === 'both') pids.add(pid);
    }
    return [...pids];
  }

  /** The process holds the other end of `inode` itself, on a descriptor other than the one it blocks on. */
  holdsOtherEnd(pid: number, inode: number, direction: 'read' | 'write', links: ReadonlyMap<number, string>): boolean {
    const want = direction === 'read' ? 'write' : 'read';
    return [...links].some(
      ([fd, target]) => target === `pipe:[${inode}]` && [want, 'both'].includes(accessMode(pid, fd) ?? ''),
    );
  }

  ofPath(path: string, self: number): number[] {
    return [...new Set((this.byTarget.get(path) ?? []).map((holder) => holder.pid).filter((pid) => pid !== self))];
  }

  socketOwner(inode: number | null): number | null {
    if (inode === null) return null;
    return this.byTarget.get(`socket:[${inode}]`)?.[0]?.pid ?? null;
  }
}

/** Socket tables read once per network namespace a sample. */
class SocketTablesCache {
  private readonly byNamespace = new Map<string, SocketTables>();

  tables(pid: number): SocketTables {
    const namespace = readNamespace(pid);
    let tables = this.byNamespace.get(namespace);
    if (!tables) {
      tables = socketsOf(pid);
      this.byNamespace.set(namespace, tables);
    }
    return tables;
  }
}

function readNamespace(pid: number): string {
  try {
    return String(statSync(`/proc/${pid}/ns/net`).ino);
  } catch {
    return `pid:${pid}`;
  }
}

/**
 * The main thread waits on a futex and another thread is asleep somewhere else (a read, an accept, a sleep): what a
 * join or a condition wait on a thread that is itself stuck looks like. A running thread may still wake it: none.
 */
function threadBlockedElsewhere(process: ProcessSample): OtherThread | undefined {
  if (!/futex/.test(process.wchan)) return undefined;
  const others = process.otherThreads ?? [];
  if (others.some((thread) => thread.state === 'R' || thread.wchan === '')) return undefined;
  return others.find((thread) => (thread.state === 'S' || thread.state === 'D') && !/futex/.test(thread.wchan));
}
