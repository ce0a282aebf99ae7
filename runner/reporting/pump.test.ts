import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Pump } from './pump.js';

it('a nudged pump runs its task now instead of at the next tick, then keeps its cadence', async () => {
  let runs = 0;
  const pump = new Pump(async () => void (runs += 1), () => 60_000, () => undefined);
  pump.start();
  pump.nudge();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(runs, 1);
  pump.stop();
  pump.nudge();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(runs, 1, 'a stopped pump ignores nudges');
});

it('a nudge during a run makes the next run follow at once', async () => {
  let runs = 0;
  let release!: () => void;
  const first = new Promise<void>((resolve) => (release = resolve));
  const pump = new Pump(
    async () => {
      runs += 1;
      if (runs === 1) await first;
    },
    () => 60_000,
    () => undefined,
  );
  pump.start();
  pump.nudge();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(runs, 1);
  pump.nudge();
  release();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(runs, 2);
  pump.stop();
});
