/** Plain-data items in their order, each value once: two items are the same when their JSON is (field order counts). */
export function distinct<T>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
