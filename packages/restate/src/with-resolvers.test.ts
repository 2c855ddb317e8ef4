import { expect, it } from 'vitest';
import { installWithResolvers } from './with-resolvers.js';

type WithResolvers = { withResolvers<T>(): { promise: Promise<T>; resolve(value: T): void; reject(reason: unknown): void } };

it('installs Promise.withResolvers where it is missing, with the standard behaviour', async () => {
  // A Promise subclass without the method stands in for Node 20's Promise.
  class OldPromise<T> extends Promise<T> {}
  Object.defineProperty(OldPromise, 'withResolvers', { value: undefined, configurable: true, writable: true });
  expect(installWithResolvers(OldPromise)).toBe(true);
  const made = (OldPromise as unknown as WithResolvers).withResolvers<number>();
  expect(made.promise).toBeInstanceOf(OldPromise);
  made.resolve(7);
  expect(await made.promise).toBe(7);
  const failing = (OldPromise as unknown as WithResolvers).withResolvers<never>();
  failing.reject(new Error('no'));
  await expect(failing.promise).rejects.toThrow('no');
});

it('leaves a native Promise.withResolvers alone', () => {
  const native = () => ({ promise: Promise.resolve(), resolve() {}, reject() {} });
  class NewPromise<T> extends Promise<T> {}
  Object.defineProperty(NewPromise, 'withResolvers', { value: native, configurable: true, writable: true });
  expect(installWithResolvers(NewPromise)).toBe(false);
  expect((NewPromise as unknown as { withResolvers: unknown }).withResolvers).toBe(native);
});
