import { DEFAULTS } from '../../defaults.js';
import { flag } from './flag.js';
import { choice } from './values.js';

/** The flag of every command that runs sandboxes (eval, check-cases, capture): checked before anything runs. */
export const SANDBOX_FLAGS = {
  isolation: flag({
    value: choice(['auto', 'strict'], 'MODE'),
    section: 'run',
    resume: 'not recorded',
    help: 'auto: bubblewrap when the host has it, else the host-user fallback with a warning;\nstrict: refuse to run without bubblewrap (exit 1), for scores that must be trustworthy',
    default: DEFAULTS.isolation,
  }),
} as const;
