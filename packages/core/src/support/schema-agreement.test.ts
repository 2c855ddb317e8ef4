/**
 * `Agree` is checked when the tests compile (`npm run check`): each line below
 * compiles only if `Agree` says what its comment says. The runtime test is there so
 * that the file also appears in test runs.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Agree, Proven } from './schema-agreement.js';

const part = z.looseObject({ type: z.literal('text'), text: z.string(), note: z.string().optional() });
type Part = z.output<typeof part>;

interface SamePart {
  type: 'text';
  text: string;
  note?: string;
  [extra: string]: unknown;
}

type _Agreements = [
  // The same fields, optional the same way, unknown fields on both sides.
  Proven<Agree<SamePart, Part>>,
  // Through arrays and unions.
  Proven<Agree<{ parts: (SamePart | number)[] }, { parts: (number | Part)[] }>>,
];

// @ts-expect-error an optional field on one side only (assignable both ways, but not the same data)
type _MissingOptional = Proven<Agree<{ type: 'text'; text: string; [extra: string]: unknown }, Part>>;
// @ts-expect-error a field optional on one side and required on the other
type _Optionality = Proven<Agree<{ type: 'text'; text: string; note: string; [extra: string]: unknown }, Part>>;
// @ts-expect-error unknown fields kept on one side only
type _Closed = Proven<Agree<{ type: 'text'; text: string; note?: string }, Part>>;
// @ts-expect-error a wider literal
type _Literal = Proven<Agree<{ type: string; text: string; note?: string; [extra: string]: unknown }, Part>>;
// @ts-expect-error a nested difference
type _Nested = Proven<Agree<{ parts: { type: 'text'; text: number }[] }, { parts: { type: 'text'; text: string }[] }>>;

describe('Agree', () => {
  it('is a compile-time check (see the type lines above)', () => {
    expect(part.parse({ type: 'text', text: 'kept', extra: 1 })).toEqual({ type: 'text', text: 'kept', extra: 1 });
  });
});
