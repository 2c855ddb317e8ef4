/**
 * Plain-text layout for human output: aligned tables, grouped numbers and one-line
 * previews. No colour, so output reads the same in a terminal, a pipe or a CI log.
 */

/** A table column: its header and whether values line up on the right (numbers). */
export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** A label shown above this column and its neighbours with the same group. */
  group?: string;
}

/**
 * Lays out rows under their headers, columns separated by two spaces, no trailing
 * blanks. Column groups get a spanning `-- label --` line above the headers.
 */
export function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    columns
      .map((column, index) => {
        const cell = cells[index] ?? '';
        const width = widths[index]!;
        return column.align === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  const groups = columns.some((column) => column.group) ? [groupLine(columns, widths)] : [];
  return [...groups, line(columns.map((column) => column.header)), ...rows.map((row) => line(row))].join('\n');
}

function groupLine(columns: readonly Column[], widths: readonly number[]): string {
  let out = '';
  let index = 0;
  while (index < columns.length) {
    const group = columns[index]!.group;
    let span = widths[index]!;
    let next = index + 1;
    while (group && next < columns.length && columns[next]!.group === group) {
      span += 2 + widths[next]!;
      next += 1;
    }
    const separator = index === 0 ? '' : '  ';
    out += separator + (group ? centre(` ${group} `, span, '-') : ' '.repeat(span));
    index = next;
  }
  return out.trimEnd();
}

function centre(label: string, width: number, fill: string): string {
  const left = Math.max(0, Math.floor((width - label.length) / 2));
  return (fill.repeat(left) + label).padEnd(width, fill);
}

/** An integer with thousands separators: `12,345`. */
export function formatCount(value: number): string {
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Text squeezed onto one line (whitespace runs become one space) and cut to `width`
 * characters with an ellipsis.
 */
export function preview(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const characters = Array.from(flat);
  if (characters.length <= width) return flat;
  return `${characters.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/** `1 message`, `2 messages`. */
export function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}
