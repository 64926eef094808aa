/**
 * The skips the CI machine is expected to have (root, 2 cores, bubblewrap, a hybrid cgroup host whose v2 hierarchy
 * holds no controller; `.ci/run` also runs the sandbox suites as `hbuser`), each with the user it happens to and the
 * reason the test gives. In CI (test/support/ci.ts) any other skip fails the run (test/support/skip-reporter.ts): a
 * skip that is new, one that happens to a user it is not listed for, or one that skips for another reason (a
 * capability lost, not the host shape listed) must be added here with its reason or fixed — never counted and accepted.
 */
export type SkipUser = 'root' | 'non-root';

export interface ExpectedSkip {
  readonly file: string;
  /** the test's full name (describe > test), as the skip reporter prints it. */
  readonly test: string;
  /** the users the skip is expected for: root (`npm test` and the slow suites) or not (`npm run test:nonroot`). */
  readonly users: readonly SkipUser[];
  /** what the test's own reason (`ctx.skip(reason)`, the reporter's note) must match. */
  readonly note: RegExp;
  /** why this machine takes the other branch. */
  readonly reason: string;
}

export const EXPECTED_SKIPS: readonly ExpectedSkip[] = [
  {
    file: 'test/hostile/isolation.test.ts',
    test: 'without bubblewrap > says so in the capabilities, with the package to install',
    users: ['root', 'non-root'],
    note: /^host shape: applies only where bubblewrap cannot run /,
    reason:
      'bubblewrap runs on CI, as root and as hbuser; test/sandbox/host-shapes.test.ts forces the shape without it',
  },
  {
    file: 'test/sandbox/diagnose.test.ts',
    test: 'why the jail cannot start, and the fix, in one line > names a setuid bwrap before trying it',
    users: ['non-root'],
    note: /^host shape: applies only where the harness is root: /,
    reason: 'as hbuser (npm run test:nonroot): making a setuid copy of bwrap needs root; the root suite runs it',
  },
  {
    file: 'test/hostile-slow/programs.test.ts',
    test: 'hostile programs, each beside a healthy canary (baseline agent that never kills: budgets and the sandbox decide) > a memory hog of four processes is stopped by the attempt memory limit, not the host',
    users: ['non-root'],
    note: /^host shape: applies only where a memory controller, v1 or v2, which a non-root user has only in a delegated cgroup subtree;/,
    reason: 'as hbuser (npm run test:nonroot): no memory cgroup without a delegated subtree; the root suite runs it',
  },
  {
    file: 'test/sandbox/cpu-priority.test.ts',
    test: 'the fixtures yield the CPU to the harness > group-idle and group-low set the attempt cpu cgroup, where there is one',
    users: ['non-root'],
    note: /^no cgroup v1 cpu hierarchy here \(cpu limits: none\)$/,
    reason: 'as hbuser (npm run test:nonroot): no cpu cgroup without a delegated subtree; the root suite runs it',
  },
];

/** A skip as the reporter saw it: the file, the test's full name, the reason it gave, and who ran it. */
export interface SeenSkip {
  readonly file: string;
  readonly test: string;
  /** the reason the test gave; undefined when it gave none (never expected). */
  readonly note: string | undefined;
  readonly user: SkipUser;
}

/** The user the tests run as. */
export function currentUser(uid: number | undefined = process.getuid?.()): SkipUser {
  return uid === 0 ? 'root' : 'non-root';
}

/** A skip is expected when one entry lists its file and test, its user, and a note its reason matches. */
export function isExpectedSkip(seen: SeenSkip, expected: readonly ExpectedSkip[] = EXPECTED_SKIPS): boolean {
  return expected.some(
    (skip) =>
      skip.file === seen.file &&
      skip.test === seen.test &&
      skip.users.includes(seen.user) &&
      seen.note !== undefined &&
      skip.note.test(seen.note),
  );
}
