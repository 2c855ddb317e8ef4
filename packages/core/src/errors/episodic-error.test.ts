import { describe, expect, it } from 'vitest';
// The built copy of the same classes stands in for a second copy of the package in one node_modules tree.
import * as builtCopy from '../../dist/index.js';
import { EpisodicError } from './episodic-error.js';
import { InvalidArgumentError, TranscriptError } from './input-errors.js';
import { ModelError } from './model-error.js';
import { RunAbortedError } from './run-aborted-error.js';
import { SessionBusyError, SessionConflictError } from './session-errors.js';

describe('EpisodicError.isInstance', () => {
  const modelError = new ModelError('rate-limit', 'slow down', { retryable: true });
  const busy = new SessionBusyError('s1');

  it('is per class: a model error is not a session-busy error, and the other way round', () => {
    expect(SessionBusyError.isInstance(modelError)).toBe(false);
    expect(ModelError.isInstance(busy)).toBe(false);
    expect(SessionConflictError.isInstance(busy)).toBe(false);
    expect(SessionBusyError.isInstance(busy)).toBe(true);
    expect(ModelError.isInstance(modelError)).toBe(true);
  });

  it('is true on the base class for every Episodic error, and false for anything else', () => {
    for (const error of [modelError, busy, new RunAbortedError(), new InvalidArgumentError('x')]) {
      expect(EpisodicError.isInstance(error)).toBe(true);
    }
    expect(EpisodicError.isInstance(new Error('plain'))).toBe(false);
    expect(EpisodicError.isInstance({ code: 'session_busy', name: 'SessionBusyError' })).toBe(false);
    expect(EpisodicError.isInstance(undefined)).toBe(false);
  });

  it('recognises errors thrown by another copy of the package, class by class', () => {
    const foreignBusy = new builtCopy.SessionBusyError('s2');
    expect(foreignBusy instanceof SessionBusyError).toBe(false);
    expect(SessionBusyError.isInstance(foreignBusy)).toBe(true);
    expect(EpisodicError.isInstance(foreignBusy)).toBe(true);
    expect(ModelError.isInstance(foreignBusy)).toBe(false);
    expect(builtCopy.TranscriptError.isInstance(new TranscriptError({ line: 3 }, 'bad'))).toBe(true);
  });

  it('keeps each class its own code', () => {
    expect(modelError.code).toBe('model_rate_limit');
    expect(new ModelError('context-overflow', 'too long').code).toBe('model_context_overflow');
    expect(busy.code).toBe('session_busy');
    expect(busy.name).toBe('SessionBusyError');
  });
});
