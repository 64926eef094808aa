import type { ProcessRef, ProcessSample, StopCause, WaitRelation } from '../../types/process.js';
import { fdTarget, innerPid, readStat, tracerPid } from '../../proc/index.js';
import { SYSCALL_NR } from '../sample/syscall-names.js';
import { waitedChildren } from './child-waits.js';
import type { Diagnosis } from './diagnosis.js';

/** Job control: why a process of the tree is stopped, as far as /proc shows it, and who of the tree waits for it. */

type Stopped = Extract<WaitRelation, { kind: 'stopped' }>;
type Waiter = Stopped['waiters'][number];

const TERMINAL = /^\/dev\/(pts\/\d+|tty\w*)$/;
const nr = (name: string): number => SYSCALL_NR[name] ?? -1;
const READS = new Set(['read', 'readv', 'pread64'].map(nr));
const WRITES = new Set(['write', 'writev'].map(nr));
/** The stop signals by number (the same on x86-64 and arm64). */
const STOP_SIGNALS: Readonly<Record<number, string>> = { 19: 'SIGSTOP', 20: 'SIGTSTP', 21: 'SIGTTIN', 22: 'SIGTTOU' };

export function stoppedRelations(
  processes: readonly ProcessSample[],
  relations: readonly WaitRelation[],
  ref: (process: ProcessSample) => ProcessRef,
  syscallArgs: (pid: number) => readonly number[],
): Stopped[] {
  const byPid = new Map(processes.map((process) => [process.pid, process]));
  return processes
    .filter((process) => process.state === 'T' || process.state === 't')
    .map((process) => ({
      kind: 'stopped',
      pid: process.pid,
      cause: stopCause(process, syscallArgs(process.pid), byPid, ref),
      waiters: waitersOf(process.pid, processes, byPid, relations),
    }));
}

/**
 * A tracer first (TracerPid: a traced stop, t, is its doing); then a process group other than its terminal's
 * foreground group (the kernel stops such a process when it reads the terminal, or writes it or changes its settings:
 * the call it was in says which); else a plain stop signal, named where the process was sending it to itself.
 */
function stopCause(
  process: ProcessSample,
  args: readonly number[],
  byPid: ReadonlyMap<number, ProcessSample>,
  ref: (process: ProcessSample) => ProcessRef,
): StopCause {
  const tracer = tracerPid(process.pid) ?? 0;
  if (tracer > 0) {
    const inTree = byPid.get(tracer);
    return { by: 'tracer', tracerPid: tracer, tracer: inTree ? ref(inTree) : null };
  }
  const stat = readStat(process.pid);
  if (stat !== null && stat.ttyNr !== 0 && stat.tpgid > 0 && stat.tpgid !== process.pgid) {
    return {
      by: 'terminal',
      pgid: asSeen(process.pgid, byPid),
      foreground: asSeen(stat.tpgid, byPid),
      call: terminalCall(process, args),
    };
  }
  return { by: 'signal', signal: signalToItself(process, args) };
}

/** A host pid (a process group's leader) as the command numbers it (samples get their inner pids only in the tick). */
function asSeen(pid: number, byPid: ReadonlyMap<number, ProcessSample>): number {
  return byPid.get(pid)?.innerPid ?? innerPid(pid) ?? pid;
}

/** The terminal access the stop interrupted (the syscall file still shows it): a read, a write, an ioctl. */
function terminalCall(
  process: ProcessSample,
  args: readonly number[],
): NonNullable<Extract<StopCause, { by: 'terminal' }>['call']> | null {
  const call = process.syscall;
  if (call === null) return null;
  const name = READS.has(call.nr) ? 'read' : WRITES.has(call.nr) ? 'write' : call.nr === nr('ioctl') ? 'ioctl' : null;
  const fd = args[0] ?? call.arg0;
  const target = name === null ? null : fdTarget(process.pid, fd);
  return name !== null && target !== null && TERMINAL.test(target) ? { name, fd } : null;
}

/** kill(own pid or 0, SIGSTOP), tgkill(own pid, …, SIGTSTP): the stop signal it sent itself, else null. */
function signalToItself(process: ProcessSample, args: readonly number[]): string | null {
  const call = process.syscall;
  if (call === null) return null;
  const self = process.innerPid ?? innerPid(process.pid) ?? process.pid;
  const [first = -1, second = -1, third = -1] = args;
  if (call.nr === nr('kill') && (first === self || first === 0)) return STOP_SIGNALS[second] ?? null;
  if (call.nr === nr('tkill') && first === self) return STOP_SIGNALS[second] ?? null;
  if (call.nr === nr('tgkill') && first === self) return STOP_SIGNALS[third] ?? null;
  return null;
}

/** Who waits for the stopped process: a parent in a wait for it, a pipe's other end, a waiter for a lock it holds. */
function waitersOf(
  pid: number,
  processes: readonly ProcessSample[],
  byPid: ReadonlyMap<number, ProcessSample>,
  relations: readonly WaitRelation[],
): Waiter[] {
  const waiters: Waiter[] = processes
    .filter((process) => waitedChildren(process, byPid).includes(pid))
    .map((process) => ({ pid: process.pid, via: 'child' }));
  for (const relation of relations) {
    if (relation.kind === 'pipe' && relation.others.some((other) => other.pid === pid))
      waiters.push({ pid: relation.pid, via: relation.direction === 'read' ? 'pipe-read' : 'pipe-write' });
    if (relation.kind === 'lock' && relation.holder?.pid === pid) waiters.push({ pid: relation.pid, via: 'lock' });
  }
  return waiters.filter((waiter, at) => waiters.findIndex((other) => other.pid === waiter.pid) === at);
}

/** At most this many waiters are named; the rest are counted. */
const NAMED_WAITERS = 2;

export function explainStopped(relation: Stopped, name: (pid: number) => string, state: string): Diagnosis {
  const waiters = relation.waiters.slice(0, NAMED_WAITERS).map((waiter) => {
    switch (waiter.via) {
      case 'child':
        return `${name(waiter.pid)} waits for it to exit`;
      case 'pipe-read':
        return `${name(waiter.pid)} reads a pipe it writes`;
      case 'pipe-write':
        return `${name(waiter.pid)} writes a pipe it reads`;
      case 'lock':
        return `${name(waiter.pid)} waits for a lock it holds`;
    }
  });
  const more = relation.waiters.length > NAMED_WAITERS ? ` and ${relation.waiters.length - NAMED_WAITERS} more` : '';
  const waited = waiters.length > 0 ? `; ${waiters.join(', ')}${more}` : '';
  return {
    sentence: `${name(relation.pid)} is stopped (${state})${stopWords(relation.cause, name)}${waited}`,
    culprit: relation.pid,
    classification: 'stopped',
  };
}

function stopWords(cause: StopCause, name: (pid: number) => string): string {
  switch (cause.by) {
    case 'terminal': {
      const job = `a background job (pgrp ${cause.pgid}, foreground ${cause.foreground})`;
      const call = cause.call;
      if (call === null) return `: ${job}, as a read or write of its terminal stops it (SIGTTIN/SIGTTOU)`;
      const access = {
        read: `read the terminal (fd ${call.fd}), which stops it (SIGTTIN)`,
        write: `wrote to the terminal (fd ${call.fd}) with tostop set, which stops it (SIGTTOU)`,
        ioctl: `changed the terminal's settings (ioctl fd ${call.fd}), which stops it (SIGTTOU)`,
      }[call.name];
      return `: ${job} that ${access}`;
    }
    case 'tracer':
      return cause.tracer
        ? ` by its tracer ${name(cause.tracer.pid)}, which has not resumed it`
        : ' by a tracer outside the command (TracerPid in its status)';
    case 'signal':
      return cause.signal
        ? ` by ${cause.signal} it sent itself; it runs again only on SIGCONT`
        : ' by a signal (SIGSTOP or SIGTSTP); it runs again only on SIGCONT';
  }
}
