import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { applySolutionPatch, type PatchedFile } from '../attempt/patch.js';
import { createSandbox } from '../sandbox/index.js';
import type { HostCapabilities, Sandbox } from '../sandbox/index.js';
import { TraceWriter } from '../trace/writer.js';
import type { Case } from '../types/case.js';

interface FixtureSandboxContext {
  readonly runDir: string;
  readonly timeScale: number;
  readonly capabilities: HostCapabilities;
}

/** What a check runs in: the case's workspace, as the fixture has it or with solution.patch written over it. */
interface FixtureSandbox {
  readonly sandbox: Sandbox;
  /** `<runDir>/<case>/<name>.jsonl`. */
  readonly trace: TraceWriter;
  /** `<runDir>/<case>/`. */
  readonly logDir: string;
  /** the files solution.patch changed; [] untouched (and for an empty patch). */
  readonly patched: readonly PatchedFile[];
}

/**
 * Runs `use` in a fresh sandbox on the case's workspace (patched when `state` says so), then closes the trace, scans
 * for leaked processes and disposes of the sandbox. `{ patchError }` instead when solution.patch does not apply.
 */
export async function inFixtureSandbox<T>(
  testCase: Case,
  context: FixtureSandboxContext,
  check: { readonly attemptId: string; readonly name: string; readonly state: 'untouched' | 'patched' },
  use: (fixture: FixtureSandbox) => Promise<T>,
): Promise<T | { readonly patchError: string }> {
  const logDir = path.join(context.runDir, testCase.id);
  await mkdir(logDir, { recursive: true });
  const sandbox = await createSandbox({
    attemptId: check.attemptId,
    workspaceSource: path.join(testCase.fixtureDir, 'workspace'),
    timeScale: context.timeScale,
    capabilities: context.capabilities,
  });
  const trace = new TraceWriter(path.join(logDir, `${check.name}.jsonl`));
  try {
    let patched: readonly PatchedFile[] = [];
    if (check.state === 'patched') {
      const patch = await applySolutionPatch(testCase.fixtureDir);
      if (!patch.ok) return { patchError: patch.error };
      for (const file of patch.files) await sandbox.writeFile(file.path, file.content);
      patched = patch.files;
    }
    return await use({ sandbox, trace, logDir, patched });
  } finally {
    trace.close();
    await sandbox.leakScan();
    await sandbox.dispose();
  }
}
