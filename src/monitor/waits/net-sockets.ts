/** A process's TCP sockets from its network namespace's /proc/<pid>/net/tcp{,6}, and that namespace's counters. */

export interface SocketLine {
  readonly proto: 'tcp' | 'tcp6' | 'unix';
  readonly state: string;
  readonly local: string;
  readonly peer: string;
  readonly txQueue: number;
  readonly rxQueue: number;
  readonly inode: number;
}

const TCP_STATES: Readonly<Record<string, string>> = {
  '01': 'ESTABLISHED',
  '02': 'SYN_SENT',
  '03': 'SYN_RECV',
  '04': 'FIN_WAIT1',
  '05': 'FIN_WAIT2',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '09': 'LAST_ACK',
  '0A': 'LISTEN',
  '0B': 'CLOSING',
};

/** Rows of /proc/net/tcp or tcp6 (whose inode is wanted, when given). */
export function parseTcp(text: string, proto: 'tcp' | 'tcp6', wanted?: ReadonlySet<number>): SocketLine[] {
  const rows: SocketLine[] = [];
  for (const row of text.split('\n').slice(1)) {
    const f = row.trim().split(/\s+/);
    const inode = Number(f[9]);
    if (f.length < 10 || (wanted && !wanted.has(inode))) continue;
    const [tx, rx] = (f[4] ?? '0:0').split(':');
    rows.push({
      proto,
      state: TCP_STATES[f[3] ?? ''] ?? f[3] ?? '?',
      local: address(f[1] ?? ''),
      peer: address(f[2] ?? ''),
      txQueue: Number.parseInt(tx ?? '0', 16),
      rxQueue: Number.parseInt(rx ?? '0', 16),
      inode,
    });
  }
  return rows;
}

/** `0100007F:1F90` → `127.0.0.1:8080`; tcp6 words are little-endian 32-bit groups. */
export function address(hex: string): string {
  const [host = '', port = ''] = hex.split(':');
  const portNumber = Number.parseInt(port, 16);
  if (host.length === 8) return `${littleEndianIpv4(host)}:${portNumber}`;
  if (host.length === 32) {
    if (host.startsWith('0000000000000000FFFF0000')) return `${littleEndianIpv4(host.slice(24))}:${portNumber}`;
    const bytes = [0, 1, 2, 3].flatMap((word) => {
      const chunk = host.slice(word * 8, word * 8 + 8);
      return [6, 4, 2, 0].map((at) => chunk.slice(at, at + 2));
    });
    const groups = [0, 2, 4, 6, 8, 10, 12, 14].map((at) =>
      Number.parseInt(`${bytes[at]}${bytes[at + 1]}`, 16).toString(16),
    );
    return `[${groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::')}]:${portNumber}`;
  }
  return hex;
}

function littleEndianIpv4(hex: string): string {
  return [6, 4, 2, 0].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join('.');
}

/** TcpExt TCPOrigDataSent from /proc/<pid>/net/netstat: data-bearing segments sent in that namespace (a SYN or RST carries none). */
export function parseDataSegments(text: string): number | null {
  const lines = text.split('\n').filter((line) => line.startsWith('TcpExt:'));
  const [names, values] = lines;
  if (!names || !values) return null;
  const at = names.split(' ').indexOf('TCPOrigDataSent');
  return at < 0 ? null : Number(values.split(' ')[at]);
}
