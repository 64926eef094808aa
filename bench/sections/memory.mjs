// Harness memory: peak RSS of the hangbench process during a 2 GiB output flood, and over 1,000 quick attempts
// (queued at once by the scheduler), with the time and memory slope across those attempts.
import { readdir } from 'node:fs/promises';
import { benchCase, caseCopies, runHarness, scratchDir } from '../lib/harness.mjs';
import { sized } from '../lib/smoke.mjs';
import { linearFit, markdownTable } from '../lib/stats.mjs';

const SCALE_ATTEMPTS = Number(process.env.BENCH_SCALE_ATTEMPTS ?? sized(1000, 20));
/** bench/cases/flood-2g.yaml prints 2 GiB; a smoke run prints 128 MiB with it. */
const FLOOD_MIB = sized(2048, 128);

/** @param {string} dir */
async function floodCase(dir) {
  if (FLOOD_MIB === 2048) return benchCase('flood-2g');
  const [file] = await caseCopies(dir, { 'flood-2g': 1 }, (text) =>
    text.replace('head -c 2147483648', `head -c ${FLOOD_MIB * 2 ** 20}`),
  );
  return file;
}

async function finishedAttempts(out) {
  try {
    return (await readdir(out, { recursive: true })).filter((entry) => entry.endsWith('score.json')).length;
  } catch {
    return 0;
  }
}

export default async function memory() {
  const floodDir = await scratchDir('flood');
  const flood = await runHarness([await floodCase(floodDir), '--agent', 'oracle'], { out: `${floodDir}/out` });

  const scaleDir = await scratchDir('scale');
  const points = [];
  let sampling = false;
  const scale = await runHarness([benchCase('quick'), '--agent', 'oracle', '--repeat', String(SCALE_ATTEMPTS)], {
    out: `${scaleDir}/out`,
    everyMs: 1000,
    onSample: async ({ elapsedMs, rssKb }) => {
      if (sampling) return;
      sampling = true;
      points.push({ elapsedMs, rssKb, done: await finishedAttempts(`${scaleDir}/out`) });
      sampling = false;
    },
  });
  const progress = points.filter((point) => point.done > 0);
  const time = linearFit(progress.map((point) => [point.done, point.elapsedMs]));
  const rss = linearFit(progress.map((point) => [point.done, point.rssKb]));
  const half = progress.find((point) => point.done >= SCALE_ATTEMPTS / 2);
  const firstHalfRate = half ? half.done / (half.elapsedMs / 1000) : null;
  const secondHalfRate = half ? (SCALE_ATTEMPTS - half.done) / ((scale.wallMs - half.elapsedMs) / 1000) : null;
  const data = {
    flood: { peakMb: flood.peakKb / 1024, wallMs: flood.wallMs },
    scale: {
      attempts: SCALE_ATTEMPTS,
      peakMb: scale.peakKb / 1024,
      wallMs: scale.wallMs,
      msPerAttempt: time.slope,
      rssKbPerAttempt: rss.slope,
      attemptsPerSecondFirstHalf: firstHalfRate,
      attemptsPerSecondSecondHalf: secondHalfRate,
    },
  };
  const rows = [
    [
      `${FLOOD_MIB >= 1024 ? `${FLOOD_MIB / 1024} GiB` : `${FLOOD_MIB} MiB`} output flood, one attempt`,
      `${data.flood.peakMb.toFixed(0)} MB`,
      `${(flood.wallMs / 1000).toFixed(1)} s`,
      '–',
    ],
    [
      `${SCALE_ATTEMPTS} quick attempts, all queued at start`,
      `${data.scale.peakMb.toFixed(0)} MB`,
      `${(scale.wallMs / 1000).toFixed(1)} s`,
      `${time.slope.toFixed(0)} ms/attempt; ${firstHalfRate?.toFixed(1)} → ${secondHalfRate?.toFixed(1)} attempts/s (first → second half); RSS ${rss.slope >= 0 ? '+' : ''}${rss.slope.toFixed(1)} KB/attempt`,
    ],
  ];
  const worst = Math.max(data.flood.peakMb, data.scale.peakMb);
  return {
    title: 'Harness memory and scale (peak RSS = VmHWM of the hangbench process alone)',
    table: markdownTable(['load', 'harness peak RSS', 'wall', 'slope'], rows),
    notes: [
      'Linear or better: the attempt rate of the second half is not below the first, and RSS grows by a constant (near zero) per attempt.',
      'Goal: ≤ 150 MB.',
    ],
    data,
    goals: [{ figure: 'harness peak RSS, worst load (MB)', value: worst, goal: 150, met: worst <= 150 }],
  };
}
