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
 * with stdout and stderr copied to `<pid>.out` — as a child it passes a signal sent to the shim alone on to — and reports
 * `<status> <signal it got itself>` in `<pid>.exit` (then
 * `<pid>.done`). It ends the way the command did — the same code, or the same signal — so the agent sees what it would
 * without the shim. Any other use of bash (the harness's own commands, scripts, interactive shells) passes straight through.
 */
export function shellShim(): string {
  return `${SHIM_ANNOUNCE}${SHIM_RUN}${SHIM_REPORT}`;
}

/** The shim's first part: pass straight through unless observing, then announce the command and wait for the ack. */
const SHIM_ANNOUNCE = `#!${INSIDE.realBash}
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
`;

/** Its second: run the command, its output copied, signals sent to the shim alone passed on. */
const SHIM_RUN = `# Without env's signal options (coreutils < 8.31) the command runs in the foreground as it always did: a signal sent to
# the shim alone then stays with it, and one sent to the group ends the tee copies too.
hb_sigs=INT,TERM,HUP,QUIT,USR1,USR2,ALRM
if ! env --default-signal=INT --block-signal=INT true 2>/dev/null; then
  for hb_s in INT TERM HUP QUIT USR1 USR2 ALRM PIPE; do trap "hb_got=$hb_s" "$hb_s"; done
  "$hb_real" "$@" > >(exec tee -a "$hb_dir/$hb_id.out") 2> >(exec tee -a "$hb_dir/$hb_id.out" >&2)
  hb_status=$?
  wait
else
  # The tees block the signals a tool sends: one sent to the whole group stays pending in them (and does not end the
  # copy of the command's output, as it would not end the tool's own pipe), so the shim can tell it from one sent to
  # the shim alone (a tool that ends only the shell it started), which it passes on to the command.
  exec {hb_out}> >(exec env --block-signal=$hb_sigs tee -a "$hb_dir/$hb_id.out")
  hb_tee=$!
  exec {hb_err}> >(exec env --block-signal=$hb_sigs tee -a "$hb_dir/$hb_id.out" >&2)
  hb_tee2=$!
  hb_pass() {
    local hb_key hb_val hb_rest hb_pending=0
    hb_got=$1
    [ -r "/proc/$hb_tee/status" ] || return 0
    while read -r hb_key hb_val hb_rest; do
      case $hb_key in SigPnd: | ShdPnd:) hb_pending=$((hb_pending | 16#$hb_val)) ;; esac
    done < "/proc/$hb_tee/status"
    (( (hb_pending >> ($(kill -l "$1") - 1)) & 1 )) || kill -s "$1" "$hb_child" 2>/dev/null
  }
  # INT and QUIT as the shim got them: an asynchronous command starts with both ignored, so env resets them, unless
  # they were ignored on entry already (trap -p names those, before any trap is set).
  hb_reset=
  for hb_s in INT QUIT; do [ -n "$(trap -p "$hb_s")" ] || hb_reset="$hb_reset\${hb_reset:+,}$hb_s"; done
  for hb_s in \${hb_sigs//,/ }; do trap "hb_pass $hb_s" "$hb_s"; done
  trap "hb_got=PIPE" PIPE
  if [ -n "$hb_reset" ]; then
    env --default-signal="$hb_reset" "$hb_real" "$@" <&0 >&"$hb_out" 2>&"$hb_err" {hb_out}>&- {hb_err}>&- &
  else
    "$hb_real" "$@" <&0 >&"$hb_out" 2>&"$hb_err" {hb_out}>&- {hb_err}>&- &
  fi
  hb_child=$!
  # the wait builtin returns early for each trapped signal; the command's own status comes once it has ended
  while :; do
    wait "$hb_child"
    hb_status=$?
    kill -0 "$hb_child" 2>/dev/null || break
  done
  exec {hb_out}>&- {hb_err}>&-
  # The tees end once the command's output reaches EOF, in a moment, so its last lines are copied before the exit is
  # reported; not while a process the command left holds its output (the tee then goes on copying, as the tool's own
  # pipe would stay open): at most a second, napping on the ack FIFO that nobody writes.
  hb_tees_done() {
    local hb_p
    for hb_p in "$hb_tee" "$hb_tee2"; do
      [ -r "/proc/$hb_p/stat" ] && [[ $(< "/proc/$hb_p/stat") != *") Z "* ]] && return 1
    done
    return 0
  }
  exec {hb_nap}<> "$hb_dir/$hb_id.ack"
  for hb_i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    hb_tees_done && break
    read -r -t 0.05 -u "$hb_nap" hb_line
  done
  exec {hb_nap}>&-
fi
`;

/** Its last: report the exit and end as the command did. */
const SHIM_REPORT = `printf '%s %s\\n' "$hb_status" "$hb_got" > "$hb_dir/$hb_id.exit"
: > "$hb_dir/$hb_id.done"
if [ "$hb_status" -gt 128 ] && [ "$hb_status" -lt 193 ]; then
  trap - $((hb_status - 128)); kill -s $((hb_status - 128)) $$
fi
exit "$hb_status"
`;
