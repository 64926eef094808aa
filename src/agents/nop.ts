import type { LoopAgentFactory } from './protocol.js';

/** Finishes at once: the floor every other agent must beat. */
export const nopAgent: LoopAgentFactory = {
  name: 'nop',
  create: () => ({ next: async () => ({ type: 'finish', summary: 'nop: did nothing' }) }),
};
