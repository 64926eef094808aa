import { existsSync } from 'node:fs';
import { rm, statfs } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_LOG_CAP_BYTES } from '../monitor/index.js';
import { writeFileAtomic } from '../trace/atomic-write.js';
import { makeDirs } from '../trace/make-dirs.js';
import { resultsFaultOf, type ResultsFault } from '../trace/results-fault.js';
import { HangbenchError } from '../types/errors.js';
import { RUN_FILES } from '../types/run-files.js';

/** What one attempt may write at worst: a command log flooding to its cap, plus the trace and score files. */
const ATTEMPT_BYTES_ESTIMATE = DEFAULT_LOG_CAP_BYTES + 1024 ** 2;

/**
 * Before the first attempt: the run folder exists (made with a bounded mkdir), takes a file by rename, and the
 * filesystem's free space is read. Returns a warning when it is under what `attempts` may write; throws one line
 * (HangbenchError RESULTS) when the folder cannot be made or written at all.
 */
export async function prepareResultsFolder(runDir: string, out: string, attempts: number): Promise<string | null> {
  try {
    await makeDirs(runDir);
    const probe = path.join(runDir, '.write-probe');
    await writeFileAtomic(probe, 'hangbench\n');
    await rm(probe, { force: true });
  } catch (error) {
    const fault = resultsFaultOf(error);
    if (fault === null) throw error;
    throw new HangbenchError(
      'RESULTS',
      `--out ${out}: cannot write the results folder ${runDir} (${fault.message}); ${startFix(fault.code)}`,
      { cause: error },
    );
  }
  const space = await statfs(runDir).catch(() => null);
  if (space === null) return null;
  const free = space.bavail * space.bsize;
  const needed = attempts * ATTEMPT_BYTES_ESTIMATE;
  if (free >= needed) return null;
  return `hangbench: warning: ${runDir} has ${megabytes(free)} free; ${attempts} attempts may write up to ${megabytes(needed)} (each command log is capped at ${megabytes(DEFAULT_LOG_CAP_BYTES)}); a full disk stops the run, which --resume then finishes`;
}

function startFix(code: string): string {
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'free space or choose another --out';
  if (code === 'EACCES' || code === 'EPERM') return 'choose an --out this user may write';
  return 'choose another --out';
}

/** The one line a run stopped by its results folder ends with: the cause, what was kept, and the fix. */
export function resultsFaultLine(fault: ResultsFault, runDir: string, kept: number): string {
  const resume = `run \`hangbench eval --resume ${runDir}\``;
  const attempts = `${kept} attempt${kept === 1 ? '' : 's'} kept in ${runDir}`;
  if (!existsSync(path.join(runDir, RUN_FILES.meta)))
    return `results folder ${runDir} was removed while the run went on (${fault.code}); its attempts are lost: start the run again`;
  switch (fault.code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return `results folder full (${fault.code}): ${attempts}; free space and ${resume}`;
    case 'EROFS':
      return `results folder became read-only (EROFS): ${attempts}; make it writable and ${resume}`;
    case 'EACCES':
    case 'EPERM':
      return `results folder not writable (${fault.code}): ${attempts}; give this user write access and ${resume}`;
    default:
      return `results folder write failed (${fault.message}): ${attempts}; fix the folder and ${resume}`;
  }
}

/** A write of the run's own files (meta.json, summary.json): a refused write becomes the run's one line. */
export async function writeRunFile(write: Promise<void>, runDir: string, kept: number): Promise<void> {
  try {
    await write;
  } catch (error) {
    const fault = resultsFaultOf(error);
    if (fault === null) throw error;
    throw new HangbenchError('RESULTS', resultsFaultLine(fault, runDir, kept), { cause: error });
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 ** 2).toFixed(bytes < 10 * 1024 ** 2 ? 1 : 0)} MB`;
}
