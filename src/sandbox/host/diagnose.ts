import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { kernelSetting } from '../../proc/index.js';

/** Why bubblewrap cannot run here and what would make it: one line for the warning, meta.json and --isolation strict. */
export interface JailDiagnosis {
  readonly cause: string;
  readonly fix: string;
}

function bwrapPath(): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

const APPARMOR_FIX =
  'allow it for bwrap alone with an AppArmor profile (docs/isolation.md, "AppArmor on Ubuntu 24.04"): `abi <abi/4.0>, include <tunables/global> profile bwrap /usr/bin/bwrap flags=(unconfined) { userns, }` in /etc/apparmor.d/bwrap, then `sudo apparmor_parser -r /etc/apparmor.d/bwrap`; or system-wide `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`';

const CONTAINER_FIX =
  'run the container with an unmasked /proc and a profile that allows user namespaces and mounts: Kubernetes `securityContext: { procMount: Unmasked, seccompProfile: { type: Unconfined }, appArmorProfile: { type: Unconfined } }` with `hostUsers: false` (deploy/README.md); Docker `--security-opt systempaths=unconfined --security-opt seccomp=unconfined --security-opt apparmor=unconfined`';

/** What the host says before bwrap is even tried: checks that name their own fix. */
export function preflight(root: boolean): JailDiagnosis | null {
  const path = bwrapPath();
  if (path === null)
    return {
      cause: 'no bwrap on PATH',
      fix: 'install bubblewrap (`apt-get install bubblewrap`, `dnf install bubblewrap`)',
    };
  if (root) return null;
  try {
    if ((statSync(path).mode & 0o4000) !== 0) {
      return {
        cause: `${path} is setuid root, which refuses the options a non-root jail needs (--userns, --uid 0, --as-pid-1 in a user namespace)`,
        fix: `use an unprivileged bwrap: \`sudo chmod u-s ${path}\` (the kernel must allow unprivileged user namespaces), or run hangbench as root`,
      };
    }
  } catch {
    // unreadable: let the real attempt say what fails
  }
  if (kernelSetting('kernel/apparmor_restrict_unprivileged_userns') === '1') {
    return {
      cause:
        'AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1, Ubuntu 23.10+)',
      fix: APPARMOR_FIX,
    };
  }
  if (kernelSetting('kernel/unprivileged_userns_clone') === '0') {
    return {
      cause: 'the kernel forbids unprivileged user namespaces (kernel.unprivileged_userns_clone=0)',
      fix: '`sudo sysctl -w kernel.unprivileged_userns_clone=1`',
    };
  }
  if (kernelSetting('user/max_user_namespaces') === '0') {
    return {
      cause: 'user namespaces are disabled (user.max_user_namespaces=0)',
      fix: '`sudo sysctl -w user.max_user_namespaces=15000`',
    };
  }
  return null;
}

/** Reads a failed start's message (bwrap's own first line) as a cause with its fix. */
export function diagnose(message: string, root: boolean): JailDiagnosis {
  if (/Can't mount proc on \/newroot\/proc/.test(message)) {
    return {
      cause: 'bwrap cannot mount a fresh /proc: this runs in a container whose /proc is masked (or read-only)',
      fix: CONTAINER_FIX,
    };
  }
  if (/setting up uid map: Permission denied|Failed RTM_NEWADDR|loopback: Failed/.test(message)) {
    return {
      cause: `bwrap cannot set up its user namespace (${firstLine(message)}): AppArmor or a seccomp profile restricts user namespaces`,
      fix: `${APPARMOR_FIX}; in a container: ${CONTAINER_FIX}`,
    };
  }
  if (/No permissions to create new namespace|Creating new namespace failed|Operation not permitted/.test(message)) {
    return {
      cause: `bwrap may not create namespaces here (${firstLine(message)})`,
      fix: root
        ? `in a container: ${CONTAINER_FIX}`
        : `enable unprivileged user namespaces (\`sudo sysctl -w kernel.unprivileged_userns_clone=1 user.max_user_namespaces=15000\`); in a container: ${CONTAINER_FIX}`,
    };
  }
  return {
    cause: `bubblewrap does not work here (${firstLine(message)})`,
    fix: 'run `bwrap --unshare-all --die-with-parent --proc /proc --dev /dev --ro-bind / / id` to see why',
  };
}

function firstLine(message: string): string {
  const bwrap = /bwrap: [^;\n]*/.exec(message)?.[0];
  return (bwrap ?? message.split('\n')[0] ?? '').slice(0, 200);
}
