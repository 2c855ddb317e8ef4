import { describe, expect, it } from 'vitest';
import { formatCount, formatTable, preview } from './text-table.js';

describe('formatTable', () => {
  it('aligns columns, right-aligns numbers and trims trailing blanks', () => {
    const table = formatTable(
      [{ header: 'name' }, { header: 'tokens', align: 'right' }],
      [
        ['a', '1'],
        ['longer name', '12,345'],
      ],
    );
    expect(table.split('\n')).toEqual(['name         tokens', 'a                 1', 'longer name  12,345']);
  });

  it('spans a group label over its columns', () => {
    const table = formatTable(
      [{ header: '#' }, { header: 'user', group: 'tokens' }, { header: 'total', group: 'tokens' }],
      [['1', '10', '20']],
    );
    const [groupLine, header] = table.split('\n');
    expect(header).toBe('#  user  total');
    // The label sits over "user  total" (columns 3 to 13), not over "#".
    expect(groupLine).toBe('   - tokens --');
    expect(groupLine!.length).toBe(header!.length);
  });
});

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [1234567, '1,234,567'],
  ])('groups %d as %s', (value, text) => {
    expect(formatCount(value)).toBe(text);
  });
});

describe('preview', () => {
  it('flattens whitespace and cuts long text with an ellipsis', () => {
    expect(preview('CI is\n  red   on main', 40)).toBe('CI is red on main');
    expect(preview('abcdefghij', 5)).toBe('abcd…');
    expect(Array.from(preview('😀😀😀😀😀😀', 4))).toHaveLength(4);
  });
});
