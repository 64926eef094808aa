/**
 * Whether the tests run in CI, where a missing capability or an unlisted skip is a failure: any non-empty `CI` but
 * `false` or `0` (GitHub and GitLab set `true`, others `yes`, `1` or the service's name; `.ci/run` sets `true`).
 * Read when asked, not at import, so a test can check it under each value.
 */
export function inCi(value: string | undefined = process.env.CI): boolean {
  const text = (value ?? '').trim().toLowerCase();
  return text !== '' && text !== 'false' && text !== '0';
}
