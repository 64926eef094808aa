import type { Comparison, RateDelta } from './compare.js';

const pct = (value: number | null): string => (value === null ? '–' : `${Math.round(value * 100)}%`);
const rateText = (delta: RateDelta, side: 'base' | 'next'): string => {
  const r = delta[side];
  return r.total === 0 ? '–' : `${r.count}/${r.total} ${pct(r.rate)}`;
};
const arrow = (delta: RateDelta): string => {
  if (delta.base.rate === null || delta.next.rate === null) return '';
  const points = Math.round((delta.next.rate - delta.base.rate) * 100);
  return points === 0 ? '±0' : `${points > 0 ? '+' : ''}${points} pt`;
};
const signedPoints = (value: number): string => {
  const points = Math.round(value * 100);
  return points === 0 ? '0' : `${points > 0 ? '+' : '−'}${Math.abs(points)}`;
};
/** `paired +17 pt [−5, +40], 0 base only / 2 new only, p 0.500`: new − base on the same (case, repeat). */
const pairedText = (delta: RateDelta): string => {
  const paired = delta.paired;
  if (paired === null) return '';
  const p = paired.p < 0.001 ? '<0.001' : paired.p.toFixed(3);
  return `paired ${signedPoints(paired.difference)} pt [${signedPoints(paired.low)}, ${signedPoints(paired.high)}], ${paired.baseOnly} base only / ${paired.newOnly} new only, p ${p}`;
};
const signedMs = (value: number): string =>
  `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.round(Math.abs(value))} ms`;
const latencyText = (c: Comparison['variants'][number]): string => {
  if (c.latency === null) return '–';
  const shift = `${c.latency.meanDeltaMs >= 0 ? '+' : ''}${Math.round(c.latency.meanDeltaMs)} ms/case (noise ±${c.latency.noiseMs === null ? '?' : Math.round(c.latency.noiseMs)}, ${c.latency.cases} cases)`;
  const paired = c.latencyPaired;
  return paired === null
    ? shift
    : `${shift}; paired median ${signedMs(paired.median)} [${signedMs(paired.low)}, ${signedMs(paired.high)}] over ${paired.pairs} attempts`;
};

function headline(comparison: Comparison): string {
  return comparison.regressions.length === 0 ? 'no regression' : `${comparison.regressions.length} regression(s)`;
}

/** Plain text for a terminal. */
export function renderComparisonText(comparison: Comparison): string {
  const lines = [`compare ${comparison.base} → ${comparison.next}: ${headline(comparison)}`];
  if (comparison.paired) lines.push(`one variant each: ${comparison.paired}`);
  for (const variant of comparison.variants) {
    lines.push('', `variant ${variant.variant}`);
    for (const delta of variant.rates)
      lines.push(
        `  ${`${delta.name} (${delta.over})`.padEnd(24)} ${rateText(delta, 'base').padEnd(14)} → ${rateText(delta, 'next').padEnd(14)} ${arrow(delta).padEnd(7)}${pairedText(delta)}${delta.regressed ? '  REGRESSED' : ''}`,
      );
    lines.push(`  ${'latency (hangs)'.padEnd(24)} ${latencyText(variant)}`);
  }
  if (comparison.cases.length > 0) {
    lines.push('', 'cases whose solved count changed:');
    for (const c of comparison.cases)
      lines.push(
        `  ${c.regressed ? '✗' : c.improved ? '✓' : '·'} ${c.caseId} (${c.variant}) ${c.base.solved}/${c.base.total} → ${c.next.solved}/${c.next.total}`,
      );
  }
  if (comparison.onlyInBase.length + comparison.onlyInNew.length > 0)
    lines.push(
      '',
      `compared the shared cases only (${comparison.onlyInBase.length} only in base, ${comparison.onlyInNew.length} only in new)`,
    );
  if (comparison.variantsOnlyInOne.length > 0)
    lines.push(`variants in one run only (not compared): ${comparison.variantsOnlyInOne.join(', ')}`);
  if (comparison.regressions.length > 0)
    lines.push('', 'regressions:', ...comparison.regressions.map((r) => `  ${r.message}`));
  return `${lines.join('\n')}\n`;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');
/** A PR comment stays readable: the first regressions, then a count. */
const MAX_LISTED = 40;

/** Markdown for a PR comment or the step summary. */
export function renderComparisonMarkdown(comparison: Comparison): string {
  const lines = [
    `### hangbench: \`${comparison.base}\` → \`${comparison.next}\` — ${comparison.regressions.length === 0 ? '✅' : '❌'} ${headline(comparison)}`,
    '',
  ];
  if (comparison.paired) lines.push(`_One variant each: ${cell(comparison.paired)}._`, '');
  const listed = comparison.regressions.slice(0, MAX_LISTED);
  if (listed.length > 0) lines.push(...listed.map((r) => `- **${r.kind}** ${cell(r.message)}`), '');
  if (comparison.regressions.length > MAX_LISTED)
    lines.push(`- … and ${comparison.regressions.length - MAX_LISTED} more (\`hangbench compare\` lists them all)`, '');
  for (const variant of comparison.variants) {
    lines.push(
      `**${cell(variant.variant)}** · latency ${latencyText(variant)}`,
      '',
      '| rate | base | new | Δ | new − base, paired on (case, repeat) |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const delta of variant.rates)
      lines.push(
        `| ${delta.name} (${delta.over})${delta.regressed ? ' ❌' : ''} | ${rateText(delta, 'base')} | ${rateText(delta, 'next')} | ${arrow(delta)} | ${pairedText(delta).replace(/^paired /, '') || '–'} |`,
      );
    lines.push('');
  }
  if (comparison.cases.length > 0) {
    lines.push(
      '<details><summary>Cases whose solved count changed</summary>',
      '',
      '| case | variant | base | new |',
      '| --- | --- | --- | --- |',
    );
    for (const c of comparison.cases)
      lines.push(
        `| ${c.regressed ? '❌ ' : c.improved ? '✅ ' : ''}\`${c.caseId}\` | ${cell(c.variant)} | ${c.base.solved}/${c.base.total} | ${c.next.solved}/${c.next.total} |`,
      );
    lines.push('', '</details>');
  }
  if (comparison.variantsOnlyInOne.length > 0)
    lines.push('', `_Variants in one run only (not compared): ${cell(comparison.variantsOnlyInOne.join(', '))}._`);
  if (comparison.onlyInBase.length + comparison.onlyInNew.length > 0)
    lines.push(
      '',
      `_Compared the shared cases only: ${comparison.onlyInBase.length} only in base, ${comparison.onlyInNew.length} only in new._`,
    );
  return `${lines.join('\n')}\n`;
}
