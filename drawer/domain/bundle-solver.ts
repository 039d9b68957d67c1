/**
 * How many complete bundles a bundle's lines form, and which units form them. A bundle has slots; a line offers its
 * units to the slots that list its product; a complete bundle takes one unit for every slot. The work depends on the
 * number of lines and slots only, never on the quantities: a line of 9,999 units costs what a line of one does.
 */

/** The most slots a bundle may have (the settings' limit): the count looks at every set of slots, 2^slots − 1 of them. */
export const MAX_BUNDLE_SLOTS = 6

export interface CompleteBundles {
  /** How many complete bundles the lines form. */
  count: number
  /** Per line, in the order given, its units in those bundles (they sum to `count` × the slot count). */
  units: number[]
}

const NONE: CompleteBundles = { count: 0, units: [] }

/**
 * The largest number `n` of complete bundles, and per line its units in them. `quantities[i]` is line i's quantity and
 * `offers[i]` the slots (indexes below `slotCount`) its product may fill. Where the bundles can be made up in several
 * ways, the lines earlier in the list give all the units they can, in order: the result does not depend on anything
 * but the lines, their order and the bundle. A bundle of more than `MAX_BUNDLE_SLOTS` slots forms none.
 *
 * `n` is Hall's bound: every set S of slots needs n × |S| units from the lines offering some slot of S, so n is the
 * least, over the non-empty sets S, of ⌊their quantities / |S|⌋, and that many can always be formed. The units come
 * from a max-flow (lines → slots, each slot taking n) grown one line at a time by shortest augmenting paths, each
 * carrying as many units as the path allows: a later line's paths never take units back from an earlier line.
 */
export function completeBundles (quantities: readonly number[], offers: ReadonlyArray<readonly number[]>, slotCount: number): CompleteBundles {
  if (slotCount < 1 || slotCount > MAX_BUNDLE_SLOTS) return NONE
  const lines = quantities.length
  const masks = offers.map((slots) => slots.reduce((mask, slot) => slot >= 0 && slot < slotCount ? mask | (1 << slot) : mask, 0))
  const supply = quantities.map((quantity) => Number.isSafeInteger(quantity) && quantity > 0 ? quantity : 0)
  let count = Infinity
  for (let set = 1; set < 1 << slotCount; set++) {
    let units = 0
    for (let i = 0; i < lines; i++) if ((masks[i]! & set) !== 0) units += supply[i]!
    count = Math.min(count, Math.floor(units / bitCount(set)))
  }
  if (count === 0) return { count: 0, units: new Array<number>(lines).fill(0) }

  // flow[i][s]: units of line i in slot s; room[s]: what slot s still takes.
  const flow = supply.map(() => new Array<number>(slotCount).fill(0))
  const room = new Array<number>(slotCount).fill(count)
  const units = new Array<number>(lines).fill(0)
  const slotsOf = masks.map((mask) => Array.from({ length: slotCount }, (_, slot) => slot).filter((slot) => (mask & (1 << slot)) !== 0))
  let missing = count * slotCount
  for (let start = 0; start < lines && missing > 0; start++) {
    while (units[start]! < supply[start]! && missing > 0) {
      const path = shortestPath(start, slotsOf, flow, room)
      if (path === null) break
      // Along the path: line `start` → slot → (a line giving up its unit there) → slot … → a slot with room.
      let amount = Math.min(supply[start]! - units[start]!, room[path.at(-1)!.slot]!)
      for (const step of path.slice(1)) amount = Math.min(amount, flow[step.from]![step.previous]!)
      for (const step of path) {
        if (step.previous !== -1) flow[step.from]![step.previous]! -= amount
        flow[step.from]![step.slot]! += amount
      }
      room[path.at(-1)!.slot]! -= amount
      units[start]! += amount
      missing -= amount
    }
  }
  return { count, units }
}

function bitCount (set: number): number {
  let count = 0
  for (let rest = set; rest !== 0; rest &= rest - 1) count++
  return count
}

/** One step of an augmenting path: line `from` moves its units from slot `previous` (the step before's) to `slot`. */
interface Step {
  from: number
  previous: number
  slot: number
}

/**
 * The shortest path (breadth first) from line `start` to a slot with room, through slots whose units some line may
 * move to another slot it offers; null when there is none.
 */
function shortestPath (start: number, slotsOf: readonly number[][], flow: readonly number[][], room: readonly number[]): Step[] | null {
  const reachedBy = new Map<number, Step>()
  const queue: number[] = []
  for (const slot of slotsOf[start]!) {
    if (reachedBy.has(slot)) continue
    reachedBy.set(slot, { from: start, previous: -1, slot })
    queue.push(slot)
  }
  for (let at = 0; at < queue.length; at++) {
    const slot = queue[at]!
    if (room[slot]! > 0) {
      const path: Step[] = []
      for (let step = reachedBy.get(slot); step !== undefined; step = step.previous === -1 ? undefined : reachedBy.get(step.previous)) path.unshift(step)
      return path
    }
    // A line holding units in this slot may move one of them to another of its slots, freeing room here.
    for (let line = 0; line < flow.length; line++) {
      if (line === start || flow[line]![slot]! === 0) continue
      for (const next of slotsOf[line]!) {
        if (reachedBy.has(next)) continue
        reachedBy.set(next, { from: line, previous: slot, slot: next })
        queue.push(next)
      }
    }
  }
  return null
}
