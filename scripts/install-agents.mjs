// Installs the pinned npm package of every adapter under agents/ (or those named) into the agent cache, once:
// node scripts/install-agents.mjs [codex opencode]. CI runs it before the tests; a cached install is reused as is.
import { loadAdapter } from '../dist/agents/cli/adapter.js';
import { agentCacheDir, installAdapter } from '../dist/agents/cli/install.js';

const names = process.argv.length > 2 ? process.argv.slice(2) : ['codex', 'opencode'];
for (const name of names) {
  const started = performance.now();
  const adapter = await loadAdapter(name);
  const installed = await installAdapter(adapter);
  console.log(`${name}: ${adapter.package}@${adapter.version} in ${installed?.dir ?? '(nothing to install)'} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
console.log(`agent cache: ${agentCacheDir()}`);
