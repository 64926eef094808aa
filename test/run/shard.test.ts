import { describe, expect, it } from 'vitest';
import { parseShard, shardOf } from '../../src/run/shard.js';

interface Item {
  readonly id: string;
  readonly weight: number;
}

const items: Item[] = [
  ...Array.from({ length: 6 }, (_, i) => ({ id: `long-${i}`, weight: 90 })),
  ...Array.from({ length: 18 }, (_, i) => ({ id: `short-${i}`, weight: 10 })),
];
const slice = (list: readonly Item[], index: number, count: number) =>
  shardOf(
    list,
    { index, count },
    (item) => item.weight,
    (item) => item.id,
  );
const load = (list: readonly Item[]) => list.reduce((sum, item) => sum + item.weight, 0);

describe('shardOf', () => {
  it('splits every item into exactly one shard and keeps the original order within a shard', () => {
    const shards = [1, 2, 3].map((index) => slice(items, index, 3));
    const ids = shards.flatMap((shard) => shard.map((item) => item.id));
    expect(new Set(ids).size).toBe(items.length);
    expect(ids).toHaveLength(items.length);
    for (const shard of shards) {
      const positions = shard.map((item) => items.indexOf(item));
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
  });

  it('balances by weight, not by count: the long items spread over the shards', () => {
    const shards = [1, 2, 3].map((index) => slice(items, index, 3));
    const loads = shards.map(load);
    expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(10);
    for (const shard of shards) expect(shard.filter((item) => item.id.startsWith('long')).length).toBe(2);
    // a split by count would put 8 items in each shard; this one does not need to
    expect(shards.map((shard) => shard.length).reduce((a, b) => a + b)).toBe(24);
  });

  it('is deterministic whatever order the items come in', () => {
    const reversed = [...items].reverse();
    for (const index of [1, 2]) {
      expect(
        slice(reversed, index, 2)
          .map((item) => item.id)
          .sort(),
      ).toEqual(
        slice(items, index, 2)
          .map((item) => item.id)
          .sort(),
      );
    }
  });

  it('puts everything in shard 1/1', () => {
    expect(slice(items, 1, 1)).toEqual(items);
  });
});

describe('parseShard', () => {
  it('reads i/n and refuses anything else with the fix in the message', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/2', '3/2', '1', 'a/b', '1/0', '-1/2'])
      expect(() => parseShard(bad)).toThrow(/--shard must be i\/n with 1 ≤ i ≤ n.*JOB_COMPLETION_INDEX/);
  });
});
