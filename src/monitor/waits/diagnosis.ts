import type { Classification } from '../../types/process.js';

/** A relation put in words: who waits on what, and which process is the cause. */
export interface Diagnosis {
  readonly sentence: string;
  /** host pid of the process a correct diagnosis names. */
  readonly culprit: number | null;
  /** the classification the relation shows, where it says more than the process states alone. */
  readonly classification: Classification | null;
  /** it explains an idle process only (what keeps it alive): a process the states show stuck says more. */
  readonly idleOnly?: boolean;
}
