/** Names of the syscalls a hung process is usually blocked in, so a tick says `read(fd 0)` rather than `0(0)`. */

const X64: Record<number, string> = {
  0: 'read',
  1: 'write',
  7: 'poll',
  16: 'ioctl',
  17: 'pread64',
  19: 'readv',
  20: 'writev',
  23: 'select',
  34: 'pause',
  35: 'nanosleep',
  42: 'connect',
  43: 'accept',
  45: 'recvfrom',
  47: 'recvmsg',
  56: 'clone',
  61: 'wait4',
  62: 'kill',
  72: 'fcntl',
  73: 'flock',
  200: 'tkill',
  202: 'futex',
  230: 'clock_nanosleep',
  232: 'epoll_wait',
  234: 'tgkill',
  247: 'waitid',
  257: 'openat',
  270: 'pselect6',
  271: 'ppoll',
  281: 'epoll_pwait',
  288: 'accept4',
  441: 'epoll_pwait2',
};

const ARM64: Record<number, string> = {
  22: 'epoll_pwait',
  25: 'fcntl',
  29: 'ioctl',
  32: 'flock',
  56: 'openat',
  63: 'read',
  64: 'write',
  65: 'readv',
  66: 'writev',
  67: 'pread64',
  72: 'pselect6',
  73: 'ppoll',
  95: 'waitid',
  98: 'futex',
  101: 'nanosleep',
  115: 'clock_nanosleep',
  129: 'kill',
  130: 'tkill',
  131: 'tgkill',
  202: 'accept',
  203: 'connect',
  207: 'recvfrom',
  212: 'recvmsg',
  220: 'clone',
  242: 'accept4',
  260: 'wait4',
  441: 'epoll_pwait2',
};

const TABLE = process.arch === 'arm64' ? ARM64 : X64;

/** Syscall numbers by name on this architecture (x64 elsewhere), for the classifier's checks. */
export const SYSCALL_NR: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(TABLE).map(([nr, name]) => [name, Number(nr)]),
);

/** `read(fd 0)`, `write(fd 1)`, `wait4`, or `syscall 999` for one we do not name. */
export function describeSyscall(call: { readonly nr: number; readonly arg0: number }): string {
  const name = TABLE[call.nr];
  if (!name) return `syscall ${call.nr}`;
  return /^(read|write|readv|writev|pread64|recvfrom|recvmsg|flock|fcntl)$/.test(name)
    ? `${name}(fd ${call.arg0})`
    : name;
}
