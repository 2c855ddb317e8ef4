import { describe, expect, it } from 'vitest';
import { mapGoogleStopReason } from './map-google-stop-reason.js';

describe('mapGoogleStopReason', () => {
  it('maps the finish reasons @google/genai 3 added instead of calling them other', () => {
    expect(mapGoogleStopReason('MISSING_THOUGHT_SIGNATURE', false)).toBe('error');
    expect(mapGoogleStopReason('MALFORMED_RESPONSE', false)).toBe('error');
    expect(mapGoogleStopReason('MODEL_ARMOR', false)).toBe('content-filter');
    expect(mapGoogleStopReason('ESCALATION', false)).toBe('content-filter');
    expect(mapGoogleStopReason('PUP_LIMITED_DISABLED', false)).toBe('content-filter');
  });

  it('keeps a plain stop with calls as tool-calls and an unknown reason as other', () => {
    expect(mapGoogleStopReason('STOP', true)).toBe('tool-calls');
    expect(mapGoogleStopReason('STOP', false)).toBe('stop');
    expect(mapGoogleStopReason('SOMETHING_NEW', false)).toBe('other');
    expect(mapGoogleStopReason(undefined, false)).toBe('other');
  });
});
