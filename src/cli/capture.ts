import path from 'node:path';
import { capture } from '../capture/capture.js';
import { DEFAULTS } from '../defaults.js';
import { probeHost } from '../sandbox/index.js';
import { formatDuration } from '../types/duration.js';
import { HangbenchError } from '../types/errors.js';
import { CAPTURE_FLAGS } from './flags/command-flags.js';
import { parseFlags } from './flags/parse.js';
import { captureHelp } from './help.js';
import { checkIsolation } from './isolation.js';
import type { CliIO } from './io.js';

export async function captureCommand(args: readonly string[], io: CliIO): Promise<number> {
  const dashes = args.indexOf('--');
  const own = dashes === -1 ? args : args.slice(0, dashes);
  const argv = dashes === -1 ? [] : args.slice(dashes + 1);
  const { values, positionals, help } = parseFlags(own, CAPTURE_FLAGS);
  if (help) {
    io.stdout.write(`${captureHelp()}\n`);
    return 0;
  }
  if (positionals.length > 0 || argv.length === 0) {
    throw new HangbenchError('USAGE', 'put the command after --, e.g. hangbench capture -- node release.mjs --yes');
  }
  const terminal = values.terminal ?? DEFAULTS.captureTerminal;
  const refused = await checkIsolation(values.isolation, io, 'capture');
  if (refused !== null) return refused;
  const intervalMs = values.interval ?? DEFAULTS.captureIntervalMs;
  io.stderr.write(
    `capture: running ${argv.join(' ')} in a sandbox, a tick every ${formatDuration(intervalMs)}; Ctrl-C drafts the case from what was seen so far\n`,
  );
  const result = await capture({
    argv,
    cwd: io.cwd,
    out: path.resolve(io.cwd, values.out ?? '.'),
    ...(values.id === undefined ? {} : { id: values.id }),
    ...(values.include === undefined ? {} : { include: values.include }),
    terminal,
    intervalMs,
    hungTicks: values.ticks ?? DEFAULTS.captureHungTicks,
    maxMs: values.max ?? DEFAULTS.captureMaxMs,
    force: values.force === true,
    capabilities: await probeHost(),
    stop: io.shutdown,
    onTick: (tick) =>
      io.stderr.write(`  tick ${tick.seq} ${formatDuration(tick.elapsedMs)} ${tick.classification}: ${tick.reason}\n`),
  });
  if (!result.ok) {
    io.stderr.write(`capture: ${result.reason}\n`);
    return 1;
  }
  const shown = (file: string) => path.relative(io.cwd, file) || '.';
  io.stdout.write(
    `wrote ${shown(result.caseFile)} and ${shown(result.fixtureDir)}/ (workspace/, hidden/check.sh, solution.patch)\n`,
  );
  if (result.watch.leaked.length > 0)
    io.stdout.write(`note: still running after the kill: ${result.watch.leaked.join(', ')}\n`);
  io.stdout.write(
    `next: fill in the issue, hidden/check.sh and solution.patch, then: hangbench check-cases ${shown(result.caseFile)}\n`,
  );
  return 0;
}
