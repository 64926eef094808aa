import { readdirSync, readFileSync } from 'node:fs';

/** Live (non-zombie) processes whose environment carries HANGBENCH_ATTEMPT=<prefix…>: the leak check of the tests. */
export function attemptMarkerProcesses(prefix: string): Array<{ pid: number; command: string }> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (!environ.split('\0').some((line) => line.startsWith(`HANGBENCH_ATTEMPT=${prefix}`))) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z')
        found.push({ pid: Number(entry), command: readFileSync(`/proc/${entry}/comm`, 'latin1').trim() });
    } catch {
      // the process ended while we looked: it is gone, which is what we want
    }
  }
  return found;
}
