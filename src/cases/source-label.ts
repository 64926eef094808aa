/**
 * A case's `source:` URLs in a few characters for a table: a GitHub issue or pull request as `owner/repo#N`,
 * anything else as its host and path. Pure.
 */
export function sourceLabel(url: string): string {
  const github = /^https:\/\/github\.com\/([^/]+\/[^/]+)\/(?:issues|pull|discussions)\/(\d+)/.exec(url);
  if (github) return `${github[1]}#${github[2]}`;
  return url.replace(/^https:\/\//, '').replace(/\/$/, '');
}

/** Every source of a case, labelled, comma-separated; `—` when it has none. */
export function sourcesLabel(urls: readonly string[]): string {
  return urls.length === 0 ? '—' : urls.map(sourceLabel).join(', ');
}
