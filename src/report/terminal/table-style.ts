import Table from 'cli-table3';

/** A borderless table: two spaces between columns, one rule under the header. Colour is never cli-table3's own. */
export function newTable(head: readonly string[], colAligns?: ReadonlyArray<'left' | 'right' | 'center'>): Table.Table {
  return new Table({
    head: [...head],
    ...(colAligns ? { colAligns: [...colAligns] } : {}),
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      right: '',
      'right-mid': '',
      mid: '─',
      'mid-mid': '──',
      middle: '  ',
    },
  });
}

export function tableToString(table: Table.Table): string {
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}
