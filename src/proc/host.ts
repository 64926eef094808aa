import { readProcFile } from './read.js';

/** The harness's own process and the machine, as /proc tells them: each null where it cannot be read (no /proc). */

/** This process's resource limits, one row per limit (`Max open files  1024  524288  files`). */
export function ownLimits(): string | null {
  return readProcFile('/proc/self/limits', 'utf8');
}

/** This process's user namespace's uid ranges (`inside outside count` a line). */
export function ownUidMap(): string | null {
  return readProcFile('/proc/self/uid_map', 'utf8');
}

/** The mounts this process sees, one `/etc/fstab`-like line each. */
export function ownMounts(): string | null {
  return readProcFile('/proc/self/mounts', 'utf8');
}

/** This process's cgroups (`hierarchy:controllers:path` a line; cgroup v2 is `0::path`). */
export function ownCgroups(): string | null {
  return readProcFile('/proc/self/cgroup', 'utf8');
}

/** A kernel setting under /proc/sys (`kernel/unprivileged_userns_clone`), trimmed. */
export function kernelSetting(name: string): string | null {
  return readProcFile(`/proc/sys/${name}`, 'utf8')?.trim() ?? null;
}

/** The machine's `cpu` line of /proc/stat: jiffies since boot, all cores together, by kind. */
export function machineCpuLine(): string | null {
  const text = readProcFile('/proc/stat');
  return text === null ? null : text.split('\n', 1)[0]!;
}

/** /proc/uptime: seconds since boot and the cores' idle seconds. */
export function uptimeText(): string | null {
  return readProcFile('/proc/uptime');
}
