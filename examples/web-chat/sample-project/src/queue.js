// A promise queue that runs at most `concurrency` tasks at once.
export class Queue {
  #active = 0;
  #waiting = [];
  #idle = [];

  constructor({ concurrency = 1 } = {}) {
    this.concurrency = concurrency;
  }

  get size() {
    return this.#waiting.length;
  }

  add(task) {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ task, resolve, reject });
      this.#next();
    });
  }

  onIdle() {
    if (this.#active === 0 && this.#waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #next() {
    if (this.#active >= this.concurrency) return;
    const item = this.#waiting.shift();
    if (!item) {
      if (this.#active === 0) for (const resolve of this.#idle.splice(0)) resolve();
      return;
    }
    this.#active += 1;
    Promise.resolve()
      .then(item.task)
      .then(item.resolve, item.reject)
      .finally(() => {
        this.#active -= 1;
        this.#next();
      });
  }
}
