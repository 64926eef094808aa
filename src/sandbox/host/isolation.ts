import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HangbenchError } from '../../types/errors.js';
import { diagnose, preflight, type JailDiagnosis } from './diagnose.js';
import { hiddenRoots, toolBinds } from '../jail/jail-mounts.js';
import { harnessIsRoot, Jail, SANDBOX_UID } from '../jail/jail.js';
import type { HostCapabilities, Isolation } from '../types.js';
import { DEFAULTS } from '../../defaults.js';

const run = promisify(execFile);

/** What a run without bubblewrap lacks, in one line: printed as the fallback's warning and kept in the notes. */
const FALLBACK_GAP =
  'commands run as the harness user on the host filesystem: they can read the project, cases/, fixtures/ (answer keys) and results/, and see and signal the harness';

const INSTALL_HINT = 'install bubblewrap (`apt-get install bubblewrap`) for a sandbox the agent cannot see out of';

/** The tools a jail needs besides bwrap; all three come with util-linux. */
async function missingTool(): Promise<string | null> {
  for (const tool of ['bwrap', 'nsenter', 'setpriv', 'setsid']) {
    try {
      await run('sh', ['-c', `command -v ${tool}`]);
    } catch {
      return tool;
    }
  }
  return null;
}

/**
 * Whether commands can run under bubblewrap here: starts a real jail and runs `id -u` in it the way every command will.
 * HANGBENCH_ISOLATION=host-user forces the fallback (tests exercise both paths that way).
 */
export async function probeIsolation(network: boolean, notes: string[], commandUserns = false): Promise<Isolation> {
  if (process.env.HANGBENCH_ISOLATION === 'host-user') {
    notes.push(
      `isolation host-user: forced by HANGBENCH_ISOLATION=host-user (bubblewrap is not tried). Fix: unset HANGBENCH_ISOLATION. Meanwhile ${FALLBACK_GAP}`,
    );
    return 'host-user';
  }
  const root = harnessIsRoot();
  const missing = await missingTool();
  const before =
    missing === null || missing === 'bwrap'
      ? preflight(root)
      : { cause: `no ${missing} on PATH`, fix: 'install util-linux' };
  if (before !== null) {
    notes.push(hostUserNote(before));
    return 'host-user';
  }
  const dir = await mkdtemp(join(tmpdir(), 'hangbench-probe-'));
  let jail: Jail | null = null;
  try {
    jail = await Jail.start({
      binds: [...toolBinds(process.env, hiddenRoots()), { from: dir, to: dir, writable: true }],
      cwd: dir,
      network,
      root,
      commandUserns,
    });
    const [file, ...args] = jail.enterPrefix();
    const { stdout } = await run(file, [...args, 'id', '-u'], { timeout: 5_000 });
    if (root && Number(stdout.trim()) !== SANDBOX_UID)
      throw new Error(`a command ran as uid ${stdout.trim()}, not ${SANDBOX_UID}`);
    notes.push(
      `isolation bubblewrap: each attempt in its own PID, mount, IPC, UTS${network ? ', network' : ''} namespaces; system read-only, workspace, HOME and /tmp private; ` +
        (root
          ? `commands run as uid ${SANDBOX_UID} with no capabilities and no new privileges`
          : 'commands run in a user namespace with no capabilities and no new privileges'),
    );
    return 'bubblewrap';
  } catch (error) {
    notes.push(hostUserNote(diagnose((error as Error).message, root)));
    return 'host-user';
  } finally {
    await jail?.stop(DEFAULTS.killGraces.afterKillMs);
    await rm(dir, { recursive: true, force: true });
  }
}

/** The note that says why there is no jail and how to get one; isolationWarning and --isolation strict print it. */
function hostUserNote(diagnosis: JailDiagnosis): string {
  return `isolation host-user: ${diagnosis.cause}. Fix: ${diagnosis.fix}. Meanwhile ${FALLBACK_GAP}`;
}

function reason(caps: HostCapabilities): string {
  return (
    caps.notes.find((note) => note.startsWith('isolation host-user: '))?.slice('isolation host-user: '.length) ??
    `bubblewrap is not available. Fix: ${INSTALL_HINT}`
  );
}

/** The one-line warning for a run without bubblewrap (cause, fix, what the fallback lacks), or null when it has it. */
export function isolationWarning(caps: HostCapabilities): string | null {
  if (caps.isolation === 'bubblewrap') return null;
  return `hangbench: warning: no bubblewrap sandbox: ${reason(caps)}`;
}

/** `--isolation strict`: refuse to run a scored evaluation without bubblewrap. */
export function requireIsolation(caps: HostCapabilities, mode: 'auto' | 'strict'): void {
  if (mode === 'strict' && caps.isolation !== 'bubblewrap') {
    const why = reason(caps).split('. Meanwhile ')[0] ?? '';
    throw new HangbenchError(
      'SANDBOX',
      `--isolation strict: this host cannot run commands under bubblewrap (${why}); or run with --isolation auto`,
    );
  }
}
