/**
 * Holm's step-down adjustment (Holm 1979) of a family of p-values, in the input's order:
 * the i-th smallest is multiplied by (m − i + 1), made non-decreasing, capped at 1. Same as R's p.adjust(p, "holm").
 * null entries (a test that could not be run) are not part of the family and stay null.
 */
export function holm(pValues: ReadonlyArray<number | null>): Array<number | null> {
  const family = pValues.flatMap((p, index) => (p === null ? [] : [{ p, index }])).sort((a, b) => a.p - b.p);
  const adjusted: Array<number | null> = pValues.map(() => null);
  let running = 0;
  family.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (family.length - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}
