#!/usr/bin/env node
/**
 * Writes a generated benchmark session as a transcript (JSON Lines, format v1).
 *
 *   node bench/generate-session.js [--seed N] [--turns N] [--out FILE]
 *
 * Without --out the transcript goes to standard output.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generateSession } from './session-generator.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    turns: { type: 'string', default: '60' },
    out: { type: 'string' },
  },
});
const seed = Number(values.seed);
const turns = Number(values.turns);
if (!Number.isInteger(seed) || !Number.isInteger(turns) || turns < 1) {
  process.stderr.write(
    'usage: node bench/generate-session.js [--seed N] [--turns N] [--out FILE] (integers, turns >= 1)\n',
  );
  process.exit(2);
}
const text = generateSession({ seed, turns })
  .map((message) => `${JSON.stringify(message)}\n`)
  .join('');
if (values.out) writeFileSync(values.out, text);
else process.stdout.write(text);
