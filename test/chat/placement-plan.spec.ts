import { describe, expect, it } from '@jest/globals';
import { placementPlan, type PlacementWorker } from '../../src/modules/chat/placement/placement-plan.js';

const numbers = (n: number): string[] => Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
const workers = (ids: string[], capacity = 1000): PlacementWorker[] => ids.map((id) => ({ id, capacity }));
const load = (plan: ReadonlyMap<string, string | null>): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const home of plan.values()) counts[String(home)] = (counts[String(home)] ?? 0) + 1;
  return counts;
};

// Placement's rule (docs/operations.md, "Placement"): every process computes the same homes.
describe('placement plan: weighted rendezvous hashing with a bounded load and caps', () => {
  it('spreads 30 numbers about evenly over 3 workers, and the same on every call and in any input order', () => {
    const plan = placementPlan(numbers(30), workers(['w1', 'w2', 'w3']));
    for (const count of Object.values(load(plan))) expect(count).toBeGreaterThanOrEqual(8);
    for (const count of Object.values(load(plan))) expect(count).toBeLessThanOrEqual(11);
    expect(placementPlan([...numbers(30)].reverse(), workers(['w3', 'w1', 'w2']))).toEqual(plan);
  });

  it('a third worker takes numbers only from the other two; most numbers keep their home', () => {
    const before = placementPlan(numbers(300), workers(['w1', 'w2']));
    const after = placementPlan(numbers(300), workers(['w1', 'w2', 'w3']));
    const moved = numbers(300).filter((n) => before.get(n) !== after.get(n));
    // About a third moves, nearly all of it to the new worker (the bounded load may shift a few more).
    expect(moved.filter((n) => after.get(n) === 'w3').length).toBeGreaterThanOrEqual(90);
    expect(moved.filter((n) => after.get(n) === 'w3').length).toBeGreaterThanOrEqual(moved.length * 0.9);
    expect(moved.length).toBeLessThan(130);
  });

  it("a dead worker's numbers spread over the survivors; the others' stay where they are", () => {
    const before = placementPlan(numbers(90), workers(['w1', 'w2', 'w3']));
    const after = placementPlan(numbers(90), workers(['w1', 'w2']));
    const orphans = numbers(90).filter((n) => before.get(n) === 'w3');
    const orphanLoad = load(new Map(orphans.map((n) => [n, after.get(n)!])));
    expect(orphanLoad.w1! + orphanLoad.w2!).toBe(orphans.length);
    expect(Math.min(orphanLoad.w1!, orphanLoad.w2!)).toBeGreaterThanOrEqual(orphans.length / 4);
    const stayed = numbers(90).filter((n) => before.get(n) !== 'w3' && before.get(n) === after.get(n));
    expect(stayed.length).toBeGreaterThanOrEqual((90 - orphans.length) * 0.9);
  });

  it('a cap of 10 on 3 workers with 35 numbers: 30 placed, 10 each, 5 with no home', () => {
    const counts = load(placementPlan(numbers(35), workers(['w1', 'w2', 'w3'], 10)));
    expect(counts).toEqual({ w1: 10, w2: 10, w3: 10, null: 5 });
  });

  it('weights by capacity: a worker with twice the cap is home to about twice the numbers', () => {
    const counts = load(
      placementPlan(numbers(300), [
        { id: 'big', capacity: 2000 },
        { id: 'small', capacity: 1000 },
      ]),
    );
    expect(counts.big).toBeGreaterThan(180);
    expect(counts.small).toBeGreaterThan(80);
  });

  it('no live worker: every number unplaced', () => {
    expect(load(placementPlan(numbers(3), []))).toEqual({ null: 3 });
  });
});
