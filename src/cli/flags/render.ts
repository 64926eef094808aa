import { defaultOf, helpOf, type Flag, type FlagTable } from './flag.js';

/** Where help text starts: `  --name ARG` fills the rest, or is followed by two spaces when longer. */
const COLUMN = 24;

/** The help flag every command takes (parseFlags adds it). */
const HELP_FLAG: Flag = { help: 'this help', short: 'h' };

export interface Section {
  /** the heading line (and any lines of prose under it). */
  readonly heading: string;
}

function head(name: string, spec: Flag): string {
  const flag = `${spec.short === undefined ? '' : `-${spec.short}, `}--${name}`;
  return spec.value === undefined ? flag : `${flag} ${spec.value.argument}`;
}

function described(spec: Flag): string[] {
  const lines = helpOf(spec).split('\n');
  const fallback = defaultOf(spec);
  if (fallback !== undefined) lines[lines.length - 1] += ` (default: ${fallback})`;
  return [...lines, ...(spec.details?.() ?? []).map((line) => `  ${line}`)];
}

/** One flag as --help lists it: `  --name ARG   help (default: X)`, continuation lines under the help's column. */
export function renderFlag(name: string, spec: Flag): string {
  const start = `  ${head(name, spec)}`;
  const [first, ...rest] = described(spec);
  const lead = start.length <= COLUMN - 2 ? start.padEnd(COLUMN) : `${start}  `;
  return [`${lead}${first}`, ...rest.map((line) => `${' '.repeat(COLUMN)}${line}`)].join('\n');
}

/** The section of a flag that names none, and the one section of most commands. */
const OPTIONS: Readonly<Record<string, Section>> = { run: { heading: 'Options:' } };

/**
 * A command's options as --help prints them: each section's heading, then its flags in the table's order; a
 * flag without a section is under `run`. The last section ends with -h, --help.
 */
export function renderFlags(table: FlagTable, sections: Readonly<Record<string, Section>> = OPTIONS): string {
  const keys = Object.keys(sections);
  const blocks = keys.map((key, index) => {
    const flags = Object.entries(table).filter(([, spec]) => (spec.section ?? 'run') === key);
    const lines = flags.map(([name, spec]) => renderFlag(name, spec));
    if (index === keys.length - 1) lines.push(renderFlag('help', HELP_FLAG));
    return [sections[key]!.heading, ...lines].join('\n');
  });
  return blocks.join('\n\n');
}

/** Text as one Markdown table cell: pipes and angle brackets escaped, lines joined. */
const cell = (text: string): string =>
  text
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/\s*\n\s*/g, ' ');
const code = (text: string): string => `\`${text.replace(/\|/g, '\\|')}\``;
/** A details line (`name   what it is`) as `name: what it is`. */
const detail = (line: string): string => cell(line.trim().replace(/\s{2,}/, ': '));

/** A command's flags as a Markdown table for docs/: flag, value, default, (eval) on --resume, what it does. */
export function renderFlagsMarkdown(table: FlagTable, { withResume = false } = {}): string {
  const columns = ['flag', 'value', 'default', ...(withResume ? ['on `--resume`'] : []), 'what it does'];
  const rows = Object.entries(table).map(([name, spec]) => {
    const fallback = defaultOf(spec);
    const help = [cell(helpOf(spec)), ...(spec.details?.() ?? []).map(detail)].join('<br>');
    return [
      code(`--${name}`),
      spec.value === undefined ? '(switch)' : code(spec.value.argument),
      fallback === undefined ? '–' : cell(fallback),
      ...(withResume ? [spec.resume ?? '–'] : []),
      help,
    ];
  });
  return [
    `| ${columns.join(' | ')} |`,
    `|${columns.map(() => '---|').join('')}`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}
