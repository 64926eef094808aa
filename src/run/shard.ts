import { HangbenchError } from '../types/errors.js';
import { attemptKey } from '../types/attempt-key.js';

/** Slice `index` (1-based) of `count`: `--shard 2/3`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new HangbenchError(
      'USAGE',
      `--shard must be i/n with 1 ≤ i ≤ n, e.g. --shard 1/4, got "${text}" (a Kubernetes Indexed Job passes $((JOB_COMPLETION_INDEX + 1))/n)`,
    );
  }
  return { index, count };
}

/**
 * The items of one shard, in their original order. Deterministic and balanced by expected duration, not count:
 * items are taken heaviest first (ties by key) and each goes to the shard with the least total weight so far
 * (ties to the lowest shard), so every shard computes the same split on its own machine.
 */
export function shardOf<T>(
  items: readonly T[],
  shard: Shard,
  weight: (item: T) => number,
  key: (item: T) => string,
): T[] {
  const order = items
    .map((item, position) => ({ position, weight: Math.max(0, weight(item)), key: key(item) }))
    .sort((a, b) => b.weight - a.weight || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const loads = Array.from({ length: shard.count }, () => 0);
  const mine = new Set<number>();
  for (const entry of order) {
    let lightest = 0;
    for (let candidate = 1; candidate < loads.length; candidate += 1)
      if (loads[candidate]! < loads[lightest]!) lightest = candidate;
    loads[lightest]! += entry.weight;
    if (lightest === shard.index - 1) mine.add(entry.position);
  }
  return items.filter((_, position) => mine.has(position));
}

export function attemptShardKey(attempt: {
  readonly testCase: { readonly id: string };
  readonly variant: { readonly name: string };
  readonly repeat: number;
}): string {
  return attemptKey({ caseId: attempt.testCase.id, variant: attempt.variant.name, repeat: attempt.repeat });
}
