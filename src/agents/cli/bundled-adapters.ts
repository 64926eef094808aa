import { readdirSync } from 'node:fs';
import { adapterDirs } from './adapter.js';

/** The adapters shipped in agents/ (one YAML file each), sorted: what `--agent cli:NAME` may name without HANGBENCH_AGENTS_DIR. */
export function bundledAdapters(): string[] {
  const bundled = adapterDirs({}).at(-1)!;
  return readdirSync(bundled)
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => file.slice(0, -'.yaml'.length))
    .sort();
}
