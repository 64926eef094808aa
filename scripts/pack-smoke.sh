#!/usr/bin/env bash
# The package as another project gets it, by the install line of README.md's first screen (docs/api.md has the same):
# a copy of the project as a clone has it (no node_modules/, no dist/) beside an empty project, the line run there as
# written (npm ci and npm pack in the clone, the tarball installed into the project); then, in the project:
# validate (the bundled library, no cases/ in the project), eval of a few bundled cases with the oracle, init +
# check-cases, a module agent importing defineAgent from 'hangbench', and a TypeScript type check of the exports that
# reads nothing outside the project but the compiler's own lib (the repo's tsc is the compiler only).
# Dependencies come from the npm registry (npm's cache first). Usage: scripts/pack-smoke.sh [--keep]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd -P)"
work="$(mktemp -d "${TMPDIR:-/tmp}/hangbench-pack-smoke.XXXXXX")"
work="$(cd "$work" && pwd -P)"
[ "${1:-}" = "--keep" ] || trap 'rm -rf "$work"' EXIT
step() { printf '\n== %s\n' "$*"; }
fail() { echo "pack-smoke: FAIL: $*" >&2; exit 1; }
# The first ```sh block of a markdown file.
first_sh_block() { awk '/^```sh$/ { inside = 1; next } inside && /^```$/ { exit } inside' "$1"; }
# Its one line that installs a tarball, without a trailing comment.
install_line() { first_sh_block "$1" | grep -E '^[^#]*npm install -D [^ ]+\.tgz' | sed -E 's/[[:space:]]+#.*$//'; }

step "the install line of README.md's first screen, the same in docs/api.md"
line="$(install_line "$repo/README.md")"
[ -n "$line" ] && [ "$(printf '%s\n' "$line" | wc -l)" -eq 1 ] || fail "README.md's first sh block has no single 'npm install -D <tarball>' line"
[ "$(install_line "$repo/docs/api.md")" = "$line" ] || fail "docs/api.md's first sh block does not install as README.md does: $line"
echo "$line"

step "a copy of the project as a clone has it: the files git tracks or would add, no node_modules/, no dist/"
git -C "$repo" rev-parse --is-inside-work-tree > /dev/null 2>&1 || fail "$repo is not a git work tree (the copy is the files git lists)"
clone="$work/hangbench"
mkdir -p "$clone"
(
  cd "$repo"
  git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' file; do if [ -e "$file" ] || [ -L "$file" ]; then printf '%s\0' "$file"; fi; done |
    tar --null -T - -cf -
) | tar -C "$clone" -xf -
[ ! -e "$clone/node_modules" ] && [ ! -e "$clone/dist" ] || fail "the copy has node_modules/ or dist/"

step "the install line, run as written in an empty project beside the clone (npm ci and npm pack there, no build in the project)"
project="$work/project"
mkdir -p "$project"
cd "$project"
printf '{ "name": "smoke-project", "version": "1.0.0", "private": true, "type": "module" }\n' > package.json
bash -euo pipefail -c "$line" || fail "the install line: $line"
[ -d node_modules/hangbench/dist ] || fail "node_modules/hangbench/dist/ was not installed"
[ ! -d node_modules/hangbench/src ] || fail "src/ was installed"
[ ! -d node_modules/typescript ] || fail "a devDependency (typescript) was installed into the project"

step "the tarball's file list (npm pack --dry-run --json of the clone as the line built it)"
(cd "$clone" && npm pack --dry-run --json --ignore-scripts 2> /dev/null) > "$work/pack.json"
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
tsc="$repo/node_modules/.bin/tsc"
tsc_lib="$(cd "$repo/node_modules/typescript/lib" && pwd -P)"
options=(--noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 --skipLibCheck false)
"$tsc" "${options[@]}" api-check.mts || fail "the package's types (the project's node_modules/@types loaded automatically)"
# A tsconfig that lists its own `types` loads no @types/* by itself: the package's .d.ts must bring Node's.
printf '{ "compilerOptions": { "types": [] }, "files": ["api-check.mts"] }\n' > tsconfig.json
"$tsc" -p . "${options[@]}" || fail "the package's types (a tsconfig with types: [])"
"$tsc" -p . "${options[@]}" --listFilesOnly > "$work/tsc-files.txt"
outside="$(awk -v project="$project/" -v lib="$tsc_lib/" 'index($0, project) != 1 && index($0, lib) != 1' "$work/tsc-files.txt")"
[ -z "$outside" ] || fail "tsc read files from outside the project: $(echo "$outside" | head -3)"
grep -q "^$project/node_modules/@types/node/" "$work/tsc-files.txt" || fail "@types/node did not come from the project's node_modules"

step "pack-smoke: ok"
