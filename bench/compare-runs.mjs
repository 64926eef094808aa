// Per-case outcome agreement of two runs: node bench/compare-runs.mjs <run-dir-a> <run-dir-b>
// Compares reproduced / interrupted / false kill / completed of each (case, variant, repeat); exits 1 on any difference.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const OUTCOME_FIELDS = ['reproduced', 'interrupted', 'false_kill', 'completed'];

async function attemptsOf(runDir) {
  const file = path.join(runDir, 'summary.json');
  let summary;
  try {
    summary = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(
      `${file}: cannot read the run's summary (${error instanceof Error ? error.message : String(error)}); pass a finished run folder`,
    );
  }
  if (!Array.isArray(summary.attempts))
    throw new Error(`${file}: no "attempts" array; is this a hangbench summary.json?`);
  const byKey = new Map();
  for (const attempt of summary.attempts) byKey.set(`${attempt.caseId} ${attempt.variant} #${attempt.repeat}`, attempt);
  return {
    byKey,
    timeScale: summary.options?.timeScale,
    concurrency: summary.options?.concurrency ?? 'default',
    interrupted: summary.interrupted,
  };
}

const outcome = (attempt) =>
  OUTCOME_FIELDS.map((field) => `${field}=${attempt.scores[field] ?? '–'}`).join(' ') +
  (attempt.outcome === 'error' ? ' ERROR' : '');

/** Runs of one variant each are compared case by case even when the variants' names differ (e.g. across a rename). */
function byCaseWhenSingleVariant(a, b) {
  const variants = (run) => new Set([...run.byKey.values()].map((attempt) => attempt.variant));
  if (variants(a).size !== 1 || variants(b).size !== 1) return;
  for (const run of [a, b])
    run.byKey = new Map([...run.byKey.values()].map((attempt) => [`${attempt.caseId} #${attempt.repeat}`, attempt]));
}

export async function compareRuns(dirA, dirB) {
  const [a, b] = await Promise.all([attemptsOf(dirA), attemptsOf(dirB)]);
  byCaseWhenSingleVariant(a, b);
  const keys = [...new Set([...a.byKey.keys(), ...b.byKey.keys()])].sort();
  const differences = [];
  let same = 0;
  let compared = 0;
  for (const key of keys) {
    const left = a.byKey.get(key);
    const right = b.byKey.get(key);
    if (!left || !right) {
      differences.push({ key, a: left ? outcome(left) : 'missing', b: right ? outcome(right) : 'missing' });
      continue;
    }
    compared += 1;
    if (outcome(left) === outcome(right)) same += 1;
    else differences.push({ key, a: outcome(left), b: outcome(right) });
  }
  return { a, b, keys: keys.length, compared, same, differences };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dirA, dirB] = process.argv.slice(2);
  if (!dirA || !dirB) {
    console.error('usage: node bench/compare-runs.mjs <run-dir-a> <run-dir-b>');
    process.exit(2);
  }
  const result = await compareRuns(dirA, dirB);
  console.log(
    `A: ${dirA} (time scale ${result.a.timeScale}, concurrency ${result.a.concurrency}${result.a.interrupted ? ', INTERRUPTED' : ''})`,
  );
  console.log(
    `B: ${dirB} (time scale ${result.b.timeScale}, concurrency ${result.b.concurrency}${result.b.interrupted ? ', INTERRUPTED' : ''})`,
  );
  console.log(`agreement: ${result.same}/${result.keys} attempts have the same ${OUTCOME_FIELDS.join(' / ')}`);
  for (const difference of result.differences)
    console.log(`  ${difference.key}\n    A: ${difference.a}\n    B: ${difference.b}`);
  process.exitCode = result.differences.length === 0 ? 0 : 1;
}
