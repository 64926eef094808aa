import { readProcFile } from '../../proc/index.js';
import type { StatFields } from '../../proc/index.js';
import { parseCmdline } from '../../proc/index.js';

/** Above this many processes a running one is likely a fork loop's: its command line is not read (see processArgs). */
const SMALL_TREE = 16;
const MAX_REMEMBERED = 4096;
const remembered = new Map<string, string>();

/**
 * The command line of a sampled process. Reading /proc/<pid>/cmdline waits for the process's mmap lock, which a
 * forking process holds, often while preempted: under a fork bomb 512 such reads took 138 s and froze the harness.
 * So in a big tree a running (R) or uninterruptible (D) process — where a lock holder is — shows its last known
 * command line, or its comm, and is read once it sleeps. Small trees read every process, as a busy loop is no risk.
 */
export function processArgs(
  pid: number,
  stat: StatFields,
  treeSize: number,
  maxChars: number,
  readCmdline: () => string | null = () => readProcFile(`/proc/${pid}/cmdline`, 'utf8'),
): string {
  // An exec keeps pid and start time but changes comm (usually), so the key tells a new program apart.
  const key = `${pid}:${stat.startTicks}:${stat.command}`;
  if (treeSize > SMALL_TREE && (stat.state === 'R' || stat.state === 'D')) return remembered.get(key) ?? stat.command;
  const args = parseCmdline(readCmdline() ?? '', maxChars);
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(key, args);
  return args;
}
