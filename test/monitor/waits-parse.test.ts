import { describe, expect, it } from 'vitest';
import { address, parseDataSegments, parseTcp } from '../../src/monitor/waits/net-sockets.js';
import { lockFileKey, parseLocks } from '../../src/monitor/waits/proc-locks.js';

describe('/proc text the relations read', () => {
  it('parses /proc/locks holders and waiters, FLOCK, POSIX and OFD, and skips leases', () => {
    const text = [
      '1: FLOCK  ADVISORY  WRITE 4711 00:2d:6 0 EOF',
      '1: -> FLOCK  ADVISORY  WRITE 4712 00:2d:6 0 EOF',
      '2: POSIX  ADVISORY  READ 0 fe:01:1234 0 EOF',
      '3: LEASE  ACTIVE    READ 99 fe:01:99 0 EOF',
      '4: OFDLCK ADVISORY  WRITE -1 fe:00:2148588 0 EOF',
      '4: -> OFDLCK ADVISORY  WRITE -1 fe:00:2148588 0 EOF',
    ].join('\n');
    expect(parseLocks(text)).toEqual([
      { id: 1, waiting: false, lock: 'flock', access: 'write', pid: 4711, file: '00:2d:6' },
      { id: 1, waiting: true, lock: 'flock', access: 'write', pid: 4712, file: '00:2d:6' },
      { id: 2, waiting: false, lock: 'posix', access: 'read', pid: 0, file: 'fe:01:1234' },
      { id: 4, waiting: false, lock: 'ofd', access: 'write', pid: -1, file: 'fe:00:2148588' },
      { id: 4, waiting: true, lock: 'ofd', access: 'write', pid: -1, file: 'fe:00:2148588' },
    ]);
  });

  it('encodes a stat dev the way /proc/locks prints it', () => {
    expect(lockFileKey(45, 6)).toBe('00:2d:6');
    expect(lockFileKey(0xfe01, 1234)).toBe('fe:01:1234');
  });

  it('reads tcp rows by inode with their state, ends and queues, IPv4 and IPv6', () => {
    const tcp = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 555 1 0000000000000000 100 0 0 10 0',
      '   1: 0100007F:D431 0100007F:1F90 01 00000000:0000000C 00:00000000 00000000     0        0 556 1 0000000000000000 20 4 30 10 -1',
    ].join('\n');
    expect(parseTcp(tcp, 'tcp')).toEqual([
      { proto: 'tcp', state: 'LISTEN', local: '127.0.0.1:8080', peer: '0.0.0.0:0', txQueue: 0, rxQueue: 0, inode: 555 },
      {
        proto: 'tcp',
        state: 'ESTABLISHED',
        local: '127.0.0.1:54321',
        peer: '127.0.0.1:8080',
        txQueue: 0,
        rxQueue: 12,
        inode: 556,
      },
    ]);
    expect(parseTcp(tcp, 'tcp', new Set([556])).map((row) => row.inode)).toEqual([556]);
    expect(address('0000000000000000FFFF00000100007F:0050')).toBe('127.0.0.1:80');
    expect(address('00000000000000000000000001000000:0050')).toBe('[::1]:80');
  });

  it('reads the data segments a network namespace sent', () => {
    expect(
      parseDataSegments('TcpExt: SyncookiesSent TCPOrigDataSent Other\nTcpExt: 0 42 7\nIpExt: InOctets\nIpExt: 1\n'),
    ).toBe(42);
    expect(parseDataSegments('IpExt: InOctets\nIpExt: 1\n')).toBeNull();
  });
});
