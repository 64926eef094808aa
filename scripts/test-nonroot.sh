#!/usr/bin/env bash
# The sandbox suites as a non-root user (what a laptop user or GitHub's `runner` gets): the isolation suite, the
# non-root kill, bridge, agent-sandbox and diagnosis tests, the hostile programs and the answer search.
# As root it creates the user (HANGBENCH_NONROOT_USER, default hbuser) if missing and re-runs itself as that user.
set -euo pipefail
cd "$(dirname "$0")/.."
user=${HANGBENCH_NONROOT_USER:-hbuser}
if [ "$(id -u)" = 0 ]; then
  id "$user" >/dev/null 2>&1 || useradd -m "$user"
  tmp=$(mktemp -d /tmp/hangbench-nonroot-XXXXXX)
  chown "$user" "$tmp"
  trap 'rm -rf "$tmp"' EXIT
  repo=$PWD
  # the skips it meets are counted with the root suites' (.ci/run's log file, made by root)
  if [ -n "${HANGBENCH_SKIP_LOG:-}" ]; then chown "$user" "$HANGBENCH_SKIP_LOG"; fi
  # A checkout under a folder the user cannot enter (CI's clone may sit under /root): run from a copy it owns.
  if ! runuser -u "$user" -- test -r "$repo/package.json"; then
    repo="$tmp/repo"
    cp -a . "$repo"
    chown -R "$user" "$repo"
  fi
  runuser -u "$user" -- env -i PATH="$PATH" HOME="$(getent passwd "$user" | cut -d: -f6)" TMPDIR="$tmp" CI="${CI:-1}" \
    HANGBENCH_SKIP_LOG="${HANGBENCH_SKIP_LOG:-}" bash "$repo/scripts/test-nonroot.sh" "$@"
  exit
fi
echo "as $(id -un) (uid $(id -u)):"
# --configLoader runner: vite would bundle the config into node_modules/.vite-temp, which this user cannot write.
npx vitest run --configLoader runner test/hostile/isolation.test.ts test/sandbox/userns-kill.test.ts test/sandbox/bridge.test.ts \
  test/sandbox/agent-sandbox.test.ts test/sandbox/diagnose.test.ts test/sandbox/cpu-priority.test.ts
npx vitest run --configLoader runner --config vitest.hostile.config.ts test/hostile-slow/programs.test.ts test/hostile-slow/answer-search.test.ts
