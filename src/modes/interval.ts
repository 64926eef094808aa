import { formatDuration } from '../types/duration.js';
import { periodicMode } from './shapes.js';

/** A tick every --interval while the command runs. */
export const interval = periodicMode(
  'interval',
  'a tick every --interval while the command runs',
  (everyMs) => `interval-${formatDuration(everyMs)}`,
);
