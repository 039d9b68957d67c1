import fc from 'fast-check'
import { test } from 'tap'
import { completeBundles, MAX_BUNDLE_SLOTS } from '../../../drawer/domain/bundle-solver.ts'

/**
 * `completeBundles`: how many complete bundles a bundle's lines form and each line's units in them, against known
 * answers and, on small carts, against a search through every way of putting the units in the slots.
 */

test('any two hats: two slots offering the same product', async (t) => {
  t.same(completeBundles([9999], [[0, 1]], 2), { count: 4999, units: [9998] }, 'one line of 9,999 hats: 4,999 pairs, one hat left over')
  t.same(completeBundles([9999, 1], [[0, 1], [0, 1]], 2), { count: 5000, units: [9999, 1] }, 'a second line of one hat completes the last pair')
  t.same(completeBundles([1], [[0, 1]], 2), { count: 0, units: [0] }, 'one hat is no pair')
  t.same(completeBundles([4, 5, 6], [[0, 1, 2], [0, 1, 2], [0, 1, 2]], 3), { count: 5, units: [4, 5, 6] }, 'any three hats: 15 hats, 5 bundles')
})

test('Hall\'s condition binding on a set of slots, not on any single slot', async (t) => {
  // Each slot alone could be filled 5, 5 and 100 times; slots A and B share the same 5 units, so only 2 bundles.
  t.same(completeBundles([5, 100], [[0, 1], [2]], 3), { count: 2, units: [4, 2] })
  // A and B take 4 units between them from lines 1 and 2 only: line 1's third unit cannot go to C, which line 3 fills.
  t.same(completeBundles([3, 1, 100], [[0, 1, 2], [0, 1], [2]], 3), { count: 2, units: [3, 1, 2] })
  // Alone, slot A could be filled twice and B and C four times each; but A, B and C share lines 1 and 2's 4 units: 1 bundle.
  t.same(completeBundles([2, 2, 50], [[0, 1, 2], [1, 2], [3]], 4), { count: 1, units: [2, 1, 1] })
})

test('several ways to make the bundles up: the lines earlier in the list fill them first', async (t) => {
  t.same(completeBundles([3, 3, 2], [[0], [0], [1]], 2), { count: 2, units: [2, 0, 2] })
  t.same(completeBundles([2, 3, 3], [[1], [0], [0]], 2), { count: 2, units: [2, 2, 0] }, 'the same cart in another order')
  t.same(completeBundles([1, 1], [[0, 1], [0]], 2), { count: 1, units: [1, 1] }, 'the first line moves to the slot the second cannot fill')
  t.same(completeBundles([5, 5, 5], [[0, 1], [0, 1], [0, 1]], 2), { count: 7, units: [5, 5, 4] })
})

test('no bundle: a slot nothing offers, no lines, nothing in stock', async (t) => {
  t.same(completeBundles([10, 10], [[0], [0]], 2), { count: 0, units: [0, 0] }, 'slot B offered by no line')
  t.same(completeBundles([], [], 1), { count: 0, units: [] })
  t.same(completeBundles([0, 3], [[0], [1]], 2), { count: 0, units: [0, 0] }, 'a line of no units')
  t.same(completeBundles([3], [[]], 1), { count: 0, units: [0] }, 'a line whose product no slot offers')
})

test('a bundle of more slots than the settings allow forms none', async (t) => {
  const slots = MAX_BUNDLE_SLOTS + 1
  const all = Array.from({ length: slots }, (_, slot) => slot)
  t.equal(completeBundles([slots * 10], [all], slots).count, 0)
  t.equal(completeBundles([MAX_BUNDLE_SLOTS * 10], [all.slice(0, -1)], MAX_BUNDLE_SLOTS).count, 10, 'the most slots allowed: counted')
})

/**
 * Every way of putting the lines' units in the slots (line i gives at most quantities[i], only to slots it offers):
 * the most complete bundles, and the units per line of the way that, among those forming that many, gives the most
 * units from the first line, then from the second, and so on.
 */
function searched (quantities: readonly number[], offers: ReadonlyArray<readonly number[]>, slotCount: number): { count: number, units: number[] } {
  const total = quantities.reduce((sum, quantity) => sum + quantity, 0)
  for (let count = Math.floor(total / slotCount); count > 0; count--) {
    let best: number[] | null = null
    const filled = new Array<number>(slotCount).fill(0)
    const units: number[] = []
    const place = (line: number): void => {
      if (line === quantities.length) {
        if (filled.every((units) => units === count) && (best === null || later(best, units))) best = [...units]
        return
      }
      const choose = (at: number, left: number, given: number): void => {
        if (at === offers[line]!.length) {
          units.push(given)
          place(line + 1)
          units.pop()
          return
        }
        const slot = offers[line]![at]!
        for (let put = 0; put <= left && filled[slot]! + put <= count; put++) {
          filled[slot]! += put
          choose(at + 1, left - put, given + put)
          filled[slot]! -= put
        }
      }
      choose(0, quantities[line]!, 0)
    }
    place(0)
    if (best !== null) return { count, units: best }
  }
  return { count: 0, units: quantities.map(() => 0) }
}

/** Whether `candidate` gives more units than `best` from the first line where they differ. */
function later (best: readonly number[], candidate: readonly number[]): boolean {
  const at = candidate.findIndex((units, i) => units !== best[i])
  return at !== -1 && candidate[at]! > best[at]!
}

test('property: on small carts, the count and the units of a search through every way of filling the slots', async (t) => {
  const cart = fc.integer({ min: 1, max: 3 }).chain((slotCount) => fc.record({
    slotCount: fc.constant(slotCount),
    lines: fc.array(fc.record({
      quantity: fc.integer({ min: 0, max: 4 }),
      offers: fc.subarray(Array.from({ length: slotCount }, (_, slot) => slot))
    }), { maxLength: 4 })
  }))
  let formed = 0
  fc.assert(fc.property(cart, ({ slotCount, lines }) => {
    const quantities = lines.map((line) => line.quantity)
    const offers = lines.map((line) => line.offers)
    const found = completeBundles(quantities, offers, slotCount)
    const expected = searched(quantities, offers, slotCount)
    if (found.count > 0) formed++
    if (found.count !== expected.count || found.units.join() !== expected.units.join()) {
      throw new Error(`${JSON.stringify({ slotCount, lines })}: ${JSON.stringify(found)}, expected ${JSON.stringify(expected)}`)
    }
  }), { numRuns: 300 })
  t.ok(formed > 0, 'some carts formed bundles')
})
