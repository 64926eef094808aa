import { readPidFile } from '../../proc/index.js';
import type { StatFields } from '../../proc/index.js';
import { parseCmdline } from '../../proc/index.js';

/** Above this many processes a running one is likely a fork loop's: its command line is not read (see processArgs). */
const SMALL_TREE = 16;
const MAX_REMEMBERED = 4096;
const remembered = new Map<string, string>();

/**
 * The command line of a sampled process. Reading /proc/<pid>/cmdline waits for the process's mmap lock, which a
 * forking process holds, often while preempted: under a fork bomb 512 such reads took 138 s and froze the harness.
 * A sleeping process can wake and fork between its stat line and the read, and a failed fork (the pids cgroup refuses
 * it only after copying the address space) takes the lock all the same, so 512 reads a tick each risk waiting behind a
 * preempted fork (one read took up to 103 ms beside two busy loops). So in a big tree a process is read once, while
 * it sleeps, and shows that command line from then on (its comm while running or in D before that). Small trees read
 * every process each time, as a busy loop is no risk there, and a retitled process (setproctitle) shows its new title.
 */
export function processArgs(
  pid: number,
  stat: StatFields,
  treeSize: number,
  maxChars: number,
  readCmdline: () => string | null = () => readPidFile(pid, 'cmdline', 'utf8'),
): string {
  // An exec keeps pid and start time but changes comm (usually), so the key tells a new program apart.
  const key = `${pid}:${stat.startTicks}:${stat.command}`;
  if (treeSize > SMALL_TREE) {
    const known = remembered.get(key);
    if (known !== undefined) return known;
    if (stat.state === 'R' || stat.state === 'D') return stat.command;
  }
  const args = parseCmdline(readCmdline() ?? '', maxChars);
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(key, args);
  return args;
}
