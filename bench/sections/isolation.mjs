// The sandbox's own cost, bubblewrap against host-user, interleaved in one run (bench/sandbox-isolation.mjs).
import { sized } from '../lib/smoke.mjs';
import { sandboxIsolationBench } from '../sandbox-isolation.mjs';

const ms = (value) => (value === undefined ? '–' : `${value.toFixed(1)} ms`);

export default async function isolation() {
  const trials = Number(process.env.BENCH_TRIALS ?? sized(30, 3));
  const data = await sandboxIsolationBench({ trials });
  /** @type {Array<[string, typeof data.startup]>} */
  const rows = [
    ['one command: spawn → exit of `true`', data.startup],
    ['sandbox start (once per attempt, + once for verify)', data.sandboxCreate],
    ['kill, SIGKILL first: decision → last process gone', data.killSigkill],
  ];
  const table = [
    '| what | host-user p50 / p90 / p99 | bubblewrap p50 / p90 / p99 |',
    '|---|---|---|',
    ...rows.map(([label, figures]) => `| ${label} | ${['p50', 'p90', 'p99'].map((p) => ms(figures['host-user']?.[p])).join(' / ')} | ${['p50', 'p90', 'p99'].map((p) => ms(figures.bubblewrap?.[p])).join(' / ')} |`),
  ].join('\n');
  const added = data.startup.bubblewrap ? data.startup.bubblewrap.p50 - data.startup['host-user'].p50 : null;
  const goals = [];
  if (added !== null) goals.push({ figure: 'bubblewrap: ms added per command (p50)', value: added, goal: '< 10', met: added < 10 });
  if (data.killSigkill.bubblewrap) goals.push({ figure: 'bubblewrap: kill p99 ms (SIGKILL first)', value: data.killSigkill.bubblewrap.p99, goal: '≤ 15', met: data.killSigkill.bubblewrap.p99 <= 15 });
  return {
    title: `Isolation cost (${trials} trials each, interleaved)`,
    table,
    notes: [data.startup.bubblewrap ? '' : 'bubblewrap is not available on this host: only the host-user column was measured.'].filter(Boolean),
    data,
    goals,
  };
}
