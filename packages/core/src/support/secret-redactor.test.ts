import { describe, expect, it } from 'vitest';
import { environmentSecrets, REDACTED, SecretRedactor } from './secret-redactor.js';

describe('secret redaction', () => {
  it('takes the values of variables named like keys, tokens, secrets and passwords, 8 characters or more', () => {
    const found = environmentSecrets({
      OPENAI_API_KEY: 'sk-proj-abcdef123456',
      GITHUB_TOKEN: 'ghp_0123456789',
      PGPASSWORD: 'hunter2hunter2',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG',
      MY_AUTH: 'auth-value-123',
      SHORT_TOKEN: 'abc',
      PATH: '/usr/bin:/bin',
      HOME: '/root',
      AUTHOR: 'Someone Long',
    });
    expect(found.sort()).toEqual(
      ['sk-proj-abcdef123456', 'ghp_0123456789', 'hunter2hunter2', 'wJalrXUtnFEMI/K7MDENG', 'auth-value-123'].sort(),
    );
  });

  it('replaces every occurrence, a longer value before one it contains, and leaves short values alone', () => {
    const redactor = new SecretRedactor(['sk-abcdefgh', 'sk-abcdefgh-and-more', 'tiny', undefined]);
    expect(redactor.size).toBe(2);
    expect(redactor.redact('a=sk-abcdefgh-and-more b=sk-abcdefgh c=tiny (x+y)')).toBe(
      `a=${REDACTED} b=${REDACTED} c=tiny (x+y)`,
    );
    expect(new SecretRedactor(['a.b*c+d?e(f)']).redact('key a.b*c+d?e(f) axbxcxdxexfx')).toBe(
      `key ${REDACTED} axbxcxdxexfx`,
    );
  });

  it('redacts an error and its causes in place: message and stack', () => {
    const cause = new Error('upstream said: bad key sk-abcdefgh');
    const error = new TypeError('call failed with sk-abcdefgh', { cause });
    const redactor = new SecretRedactor(['sk-abcdefgh']);
    expect(redactor.redactError(error)).toBe(error);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(`call failed with ${REDACTED}`);
    expect(error.stack).not.toContain('sk-abcdefgh');
    expect(cause.message).toBe(`upstream said: bad key ${REDACTED}`);
    expect(redactor.redactError('not an error')).toBe('not an error');
  });
});
