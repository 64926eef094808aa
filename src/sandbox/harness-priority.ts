import { getPriority, setPriority } from 'node:os';
import { HangbenchError } from '../types/errors.js';

/** The harness's own nice value now (0 unless it was started niced or HANGBENCH_HARNESS_NICE moved it). */
export function harnessNice(): number {
  return getPriority();
}

/**
 * HANGBENCH_HARNESS_NICE=N (-20…19), when set: the harness moves its own nice value to N before the run, so its ticks
 * and kills meet other work on the machine (other CI jobs, busy loops in its own session) with more weight. A value
 * below the current one needs CAP_SYS_NICE (root, or RLIMIT_NICE); refused, the run goes on where it is and says so.
 * Sandboxed programs keep their own nice value whatever the harness's (launcherArgv). Returns the warning line, or null.
 */
export function applyHarnessNice(env: NodeJS.ProcessEnv = process.env): string | null {
  const value = env.HANGBENCH_HARNESS_NICE;
  if (value === undefined || value === '') return null;
  const nice = Number(value);
  if (!Number.isInteger(nice) || nice < -20 || nice > 19)
    throw new HangbenchError(
      'SANDBOX',
      `HANGBENCH_HARNESS_NICE=${value}: not an integer from -20 to 19; unset it to leave the harness's priority alone`,
    );
  try {
    setPriority(nice);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return `HANGBENCH_HARNESS_NICE=${nice} refused (${code}: lowering a nice value needs root or CAP_SYS_NICE); the harness stays at nice ${getPriority()}`;
  }
}

/**
 * The `nice -n` increment that puts a sandboxed program at `target`: relative to the harness as before when the harness
 * runs at nice 0 or higher (a harness started niced keeps its programs below it), absolute when the harness raised
 * itself, so its programs do not gain what it gained.
 */
export function niceIncrement(target: number, current: number = harnessNice()): number {
  return current < 0 ? target - current : target;
}
