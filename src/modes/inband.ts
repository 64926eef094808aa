import { formatDuration } from '../types/duration.js';
import { periodicMode } from './shapes.js';

/** Installed agents: the shell shim writes each rendered tick into the running command's output stream. */
export const inband = {
  ...periodicMode(
    'inband',
    "installed agents: each tick written into the running command's output",
    (everyMs) => `inband-${formatDuration(everyMs)}`,
  ),
  ticksInOutput: true,
};
