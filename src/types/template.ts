import { HangbenchError } from './errors.js';

/** `{{name}}` placeholders, nothing else: no logic in prompt files, so a prompt diff reads as a wording diff. */
const PLACEHOLDER = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/gi;

export interface Template {
  readonly source: string;
  readonly placeholders: readonly string[];
  render(values: Readonly<Record<string, string>>): string;
}

/**
 * Compiles a template and checks every placeholder against the names its renderer supplies,
 * so a typo fails when the prompt is loaded, naming the file and the placeholder.
 */
export function compileTemplate(text: string, source: string, known: readonly string[]): Template {
  const placeholders = [...text.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
  const unknown = placeholders.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new HangbenchError(
      'CONFIG',
      `${source}: unknown placeholder {{${unknown[0]}}}; this template can use ${known.map((name) => `{{${name}}}`).join(', ')}`,
    );
  }
  return {
    source,
    placeholders,
    render(values) {
      return text.replace(PLACEHOLDER, (_, name: string) => {
        const value = values[name];
        if (value === undefined) throw new HangbenchError('AGENT', `${source}: no value for placeholder {{${name}}}`);
        return value;
      });
    },
  };
}
