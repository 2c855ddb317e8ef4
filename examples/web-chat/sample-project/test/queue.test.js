import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Queue } from '../src/queue.js';

test('runs at most `concurrency` tasks at once', async () => {
  const queue = new Queue({ concurrency: 2 });
  let running = 0;
  let peak = 0;
  const task = async () => {
    running += 1;
    peak = Math.max(peak, running);
    await new Promise((resolve) => setTimeout(resolve, 5));
    running -= 1;
  };
  await Promise.all([queue.add(task), queue.add(task), queue.add(task)]);
  assert.equal(peak, 2);
});

test('drains', async () => {
  const queue = new Queue({ concurrency: 3 });
  for (let index = 0; index < 10; index += 1) queue.add(() => new Promise((resolve) => setTimeout(resolve, 1)));
  await queue.onIdle();
  assert.equal(queue.size, 0);
});
