// Installs the pinned npm package of every bundled adapter (or of those named) into the agent cache, once:
// node scripts/install-agents.mjs [claude codex …]. CI runs it with no argument before the tests; a cached install is reused as is.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { adapterDirs, loadAdapter } from '../dist/agents/cli/adapter.js';
import { agentCacheDir, installAdapter } from '../dist/agents/cli/install.js';

/** Every adapter under the bundled agents/ folder (generic has no package, so nothing to install). */
async function bundledNames() {
  const bundled = adapterDirs({}).at(-1);
  return (await readdir(bundled))
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => path.basename(file, '.yaml'))
    .sort();
}

const names = process.argv.length > 2 ? process.argv.slice(2) : await bundledNames();
for (const name of names) {
  const started = performance.now();
  const adapter = await loadAdapter(name);
  const installed = await installAdapter(adapter);
  console.log(
    `${name}: ${installed ? `${adapter.package}@${adapter.version} in ${installed.dir}` : '(nothing to install)'} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
}
console.log(`agent cache: ${agentCacheDir()}`);
