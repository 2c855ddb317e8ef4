import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../message/message.js';
import { checkAssistantLeak, checkReasoningLeak } from './leak-check.js';
import { HARMONY_SERVICE_TOKENS } from '../in-text/markers.js';

const TRACE =
  'The CI log shows the test runner failing on a missing fixture file.\nI should look at the fixture loader next.';

describe('checkReasoningLeak', () => {
  it('finds nothing in a clean answer', () => {
    expect(checkReasoningLeak({ reasoning: [TRACE], visible: 'The fixture file is missing; add it back.' })).toEqual(
      [],
    );
  });

  it('flags the opening of a trace echoed in the answer, despite case and whitespace changes', () => {
    const lead = 'Sure.\n\n';
    const echoed = 'the CI   log shows the test\nrunner failing on a MISSING fixture file. So I fixed it.';
    const findings = checkReasoningLeak({ reasoning: ['too short to matter', TRACE], visible: lead + echoed });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'trace-echo', index: lead.length, traceIndex: 1 });
    expect(findings[0]?.excerpt).toContain('the CI log shows');
  });

  it('maps positions back through case folding that changes length', () => {
    const lead = 'İİİ words  \t here ';
    const findings = checkReasoningLeak({ reasoning: [TRACE], visible: lead + TRACE });
    expect(findings).toMatchObject([{ kind: 'trace-echo', index: lead.length }]);
  });

  it('skips traces too short to mean anything, with a configurable minimum', () => {
    const input = { reasoning: ['Let me check.'], visible: 'Let me check. It works.' };
    expect(checkReasoningLeak(input)).toEqual([]);
    expect(checkReasoningLeak(input, { minTraceLength: 5 })).toMatchObject([{ kind: 'trace-echo', index: 0 }]);
  });

  it('flags every reasoning tag marker in any case, but not look-alikes', () => {
    const visible = 'a <THINK> b </think> c <thinker> <analysis/> </Reasoning>';
    const findings = checkReasoningLeak({ reasoning: [], visible });
    expect(findings.map(({ kind, index, marker }) => ({ kind, index, marker }))).toEqual([
      { kind: 'tag-marker', index: 2, marker: '<THINK>' },
      { kind: 'tag-marker', index: 12, marker: '</think>' },
      { kind: 'tag-marker', index: 45, marker: '</Reasoning>' },
    ]);
  });

  it('flags every Harmony service token, in order of position', () => {
    const visible = HARMONY_SERVICE_TOKENS.join(' x ');
    const findings = checkReasoningLeak({ reasoning: [], visible });
    expect(findings.map((finding) => finding.marker)).toEqual([...HARMONY_SERVICE_TOKENS]);
    expect(findings.every((finding) => finding.kind === 'service-token')).toBe(true);
    for (const finding of findings) expect(visible.startsWith(finding.marker ?? '', finding.index)).toBe(true);
  });

  it('finds the one marker in a 1 MB text checked against many traces', () => {
    // No wall-clock bound here (speed belongs to the benchmarks): a check quadratic in
    // the text would run for hours on this input and hit the test timeout instead.
    const visible = 'lorem ipsum dolor sit amet '.repeat(40_000);
    const reasoning = Array.from({ length: 50 }, (_, index) => `trace ${index}: ${'considering options '.repeat(10)}`);
    expect(checkReasoningLeak({ reasoning, visible: `${visible}<think>` })).toHaveLength(1);
  });
});

describe('checkAssistantLeak', () => {
  it('checks an assistant message’s reasoning parts against its text parts', () => {
    const message: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: TRACE },
        { type: 'text', text: `Answer: ${TRACE}` },
        { type: 'tool-call', id: 'call_1', name: 'read_file', args: { path: 'x' } },
      ],
    };
    expect(checkAssistantLeak(message)).toMatchObject([{ kind: 'trace-echo', index: 'Answer: '.length }]);
  });
});
