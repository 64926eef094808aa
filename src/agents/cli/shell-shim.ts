/** Where the jail shows the installed agent's pieces (docs/installed-agents.md). */
export const INSIDE = {
  realBash: '/run/hangbench/bin/bash',
  shimDir: '/run/hangbench/shim',
  taskDir: '/run/hangbench/task',
  agentDir: '/opt/hangbench/agent',
} as const;

/**
 * The shell shim, bound over /usr/bin/bash in an installed agent's jail. Started by the agent's tool with `-c COMMAND`
 * while HANGBENCH_OBSERVE names the shim folder, it announces the command (`<pid>.cmd`, then `<pid>.start`), waits up to
 * 5 s for the harness to answer on `<pid>.ack` (so the monitor watches from the first instruction), runs the real bash
 * with stdout and stderr copied to `<pid>.out`, and reports `<status> <signal it got itself>` in `<pid>.exit` (then
 * `<pid>.done`). It ends the way the command did — the same code, or the same signal — so the agent sees what it would
 * without the shim. Any other use of bash (the harness's own commands, scripts, interactive shells) passes straight through.
 */
export function shellShim(): string {
  return `#!${INSIDE.realBash}
hb_real=${INSIDE.realBash}
hb_dir=\${HANGBENCH_OBSERVE-}
hb_seen= hb_cmd=
if [ -n "$hb_dir" ]; then
  for hb_arg in "$@"; do
    # bash takes every option before the command string (bash -c -l CMD, as Claude Code runs its shell snapshot)
    if [ -n "$hb_seen" ]; then case $hb_arg in --) continue ;; -*) continue ;; esac; hb_cmd=$hb_arg; break; fi
    case $hb_arg in --*) ;; -*c*) hb_seen=1 ;; -*) ;; *) break ;; esac
  done
fi
if [ -z "$hb_seen" ] || [ ! -w "$hb_dir" ]; then exec -a "$0" "$hb_real" "$@"; fi
unset HANGBENCH_OBSERVE
hb_id=$$ hb_got=
printf '%s' "$hb_cmd" > "$hb_dir/$hb_id.cmd"
: > "$hb_dir/$hb_id.out"
mkfifo -m 600 "$hb_dir/$hb_id.ack" 2>/dev/null
: > "$hb_dir/$hb_id.start"
read -r -t 5 hb_line <> "$hb_dir/$hb_id.ack"
for hb_s in INT TERM HUP QUIT USR1 USR2 ALRM PIPE; do trap "hb_got=$hb_s" "$hb_s"; done
"$hb_real" "$@" > >(exec tee -a "$hb_dir/$hb_id.out") 2> >(exec tee -a "$hb_dir/$hb_id.out" >&2)
hb_status=$?
wait
printf '%s %s\\n' "$hb_status" "$hb_got" > "$hb_dir/$hb_id.exit"
: > "$hb_dir/$hb_id.done"
if [ "$hb_status" -gt 128 ] && [ "$hb_status" -lt 193 ]; then
  trap - $((hb_status - 128)); kill -s $((hb_status - 128)) $$
fi
exit "$hb_status"
`;
}
