import type { Clock } from '../../core/ports/index.js';

/** A clock tests drive by hand; starts at a fixed, recognisable instant. */
export class ManualClock implements Clock {
  #now: number;

  constructor(start = Date.UTC(2030, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }

  set(epochMs: number): void {
    this.#now = epochMs;
  }
}
