#!/usr/bin/env bash
# The package as another project gets it: npm pack, install the tarball into a fresh project, then use it there —
# validate (the bundled library, no cases/ in the project), eval of a few bundled cases with the oracle, init +
# check-cases, a module agent importing defineAgent from 'hangbench', and a TypeScript type check of the exports that
# sees only the project's node_modules (the published .d.ts name Node's types: @types/node is a dependency for that).
# Dependencies come from the npm registry (npm's cache first). Usage: scripts/pack-smoke.sh [--keep]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/hangbench-pack-smoke.XXXXXX")"
[ "${1:-}" = "--keep" ] || trap 'rm -rf "$work"' EXIT
step() { printf '\n== %s\n' "$*"; }
fail() { echo "pack-smoke: FAIL: $*" >&2; exit 1; }

step "npm pack (prepack builds dist/ from a clean slate)"
(cd "$repo" && npm pack --silent --pack-destination "$work" --json) > "$work/pack.json"
node -e '
  const [info] = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const files = info.files.map((file) => file.path);
  const bad = files.filter((file) => /^(src|test|bench|results|\.ci|\.github|deploy)\//.test(file) || file.endsWith(".map"));
  const need = ["agents/codex.yaml", "dist/index.js", "dist/index.d.ts", "dist/cli/main.js", "bin/hangbench.js", "LICENSE", "README.md", "cases/py-pipe-deadlock.yaml", "schema/case.schema.json", "schema/summary.schema.json", "templates/init/hangbench.config.yaml", "prompts/system.md"];
  const missing = need.filter((file) => !files.includes(file));
  console.log(`${info.filename}: ${info.entryCount} files, ${(info.size / 1024).toFixed(0)} kB packed, ${(info.unpackedSize / 1024).toFixed(0)} kB unpacked`);
  if (bad.length > 0) { console.error(`files that do not belong in the package: ${bad.slice(0, 10).join(", ")}`); process.exit(1); }
  if (missing.length > 0) { console.error(`missing from the package: ${missing.join(", ")}`); process.exit(1); }
' "$work/pack.json" || fail "the tarball's file list"
tarball="$work/$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[0].filename' "$work/pack.json")"

step "install the tarball into an empty project (no devDependencies, no build there)"
project="$work/project"
mkdir -p "$project"
cd "$project"
printf '{ "name": "smoke-project", "version": "1.0.0", "private": true, "type": "module" }\n' > package.json
npm install --silent --no-audit --no-fund --prefer-offline -D "$tarball"
[ ! -d node_modules/hangbench/src ] || fail "src/ was installed"

step "npx hangbench --version / --help"
version="$(npx --no-install hangbench --version)"
[ "$version" = "$(node -p "require('$repo/package.json').version")" ] || fail "--version printed '$version'"
npx --no-install hangbench --help > "$work/help.txt"
grep -q 'Usage: hangbench <command>' "$work/help.txt" || fail "--help"

step "npx hangbench validate: the bundled library, found relative to the package"
npx --no-install hangbench validate | tee "$work/validate.txt"
grep -Eq '^[0-9]+ valid case\(s\), 0 problem\(s\)' "$work/validate.txt" || fail "validate"
npx --no-install hangbench list > "$work/list.txt"
grep -q '^cases: the library bundled with hangbench' "$work/list.txt" || fail "list does not say it runs the bundled library"

step "npx hangbench eval --agent oracle --time-scale 0.1 on three bundled hang cases"
lib=node_modules/hangbench/cases
npx --no-install hangbench eval "$lib/node-busy-loop.yaml" "$lib/bash-tail-follow.yaml" "$lib/node-promise-timer.yaml" \
  --agent oracle --time-scale 0.1 --fail-under 100% --run-id oracle > "$work/eval.txt" || { cat "$work/eval.txt"; fail "eval of bundled cases"; }
tail -n 4 "$work/eval.txt"
for file in summary.json report.md report.html junit.xml; do [ -f "results/oracle/$file" ] || fail "results/oracle/$file missing"; done

step "npx hangbench init, then check-cases on the project's own case (the project's cases/ now take precedence)"
npx --no-install hangbench init > /dev/null
npx --no-install hangbench list > "$work/list.txt"
grep -q '^cases: cases/ of this folder' "$work/list.txt" || fail "list does not prefer the project's cases/"
npx --no-install hangbench check-cases --concurrency 1 > "$work/check.txt" || { cat "$work/check.txt"; fail "check-cases of the init example"; }
grep -q 'all 1 case(s) sound' "$work/check.txt" || fail "init example not sound"

step "a module agent importing defineAgent from 'hangbench' solves it"
cp node_modules/hangbench/examples/module-agent.mjs ./my-agent.mjs
npx --no-install hangbench eval --agent ./my-agent.mjs --time-scale 0.1 --fail-under 100% --run-id module > "$work/module.txt" || { cat "$work/module.txt"; fail "module agent"; }
grep -q 'module-my-agent' "$work/module.txt" || fail "module agent variant not in the table"

step "TypeScript sees the exported types with the project's own node_modules alone (tsc --noEmit, nodenext)"
cat > api-check.mts <<'TS'
import { defineAgent, loadCases, runEval, score, summarize, type AttemptScores, type RunSummary, type TraceEvent } from 'hangbench';
const agent = defineAgent({ create: () => ({ next: () => ({ type: 'finish' as const, summary: 'done' }) }) });
const run: (input: Parameters<typeof runEval>[0]) => Promise<RunSummary> = async (input) => (await runEval(input)).summary;
const first = (events: TraceEvent[]): AttemptScores => score(events);
void [agent, run, first, loadCases, summarize];
TS
"$repo/node_modules/.bin/tsc" --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 --skipLibCheck false api-check.mts \
  || fail "the package's types"

step "pack-smoke: ok"
