import { readPidFile } from '../../proc/index.js';
import { parseTcp, type SocketLine } from './net-sockets.js';

/** The tcp and tcp6 tables of one network namespace, by inode, read whole once (they are short inside a sandbox). */
export interface SocketTables {
  get(inode: number): SocketLine | undefined;
  /** the inode of the other end of an established loopback TCP connection, when it is in the same namespace. */
  peerInode(line: SocketLine): number | null;
}

export function socketsOf(pid: number): SocketTables {
  // Every row is kept: a peer's inode is not known beforehand.
  const rows: SocketLine[] = [
    ...parseTcp(readPidFile(pid, 'net/tcp') ?? '', 'tcp'),
    ...parseTcp(readPidFile(pid, 'net/tcp6') ?? '', 'tcp6'),
  ];
  const byInode = new Map(rows.map((row) => [row.inode, row]));
  return {
    get: (inode) => byInode.get(inode),
    peerInode: (line) =>
      rows.find((row) => row.proto === line.proto && row.local === line.peer && row.peer === line.local)?.inode ?? null,
  };
}
