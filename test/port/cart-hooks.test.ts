import { test } from 'tap'
import { applyFollowUp, CartHooks, type CartRewards, type CartState } from '../../drawer/index.ts'
import type { CartData, CartLine } from '../../kernel/domain/types.ts'

/**
 * The commerce port's `reconcile` hooks as a host's `CartHooks` merges them: every hook's follow-up (a set of keys is
 * short for `{ remove }`) into one, removals first, then each change in the order the hooks were added;
 * `applyFollowUp` applies it to the data a host's follow-up write finds.
 */

const line = (key: string, quantity = 1): CartLine => ({ key, productId: 1, variationId: 0, variation: {}, quantity })
const cart = (...lines: CartLine[]): CartData => ({ lines, coupons: [] })
// The hooks under test only look at what they are given; the state is passed through.
const STATE = { key: 'k' } as unknown as CartState
const VIEWER = { canReadPrivate: false }

test('no hook, or hooks that ask for nothing: null', async (t) => {
  const hooks = new CartHooks()
  t.equal(await hooks.reconcile(STATE, VIEWER), null, 'no hook')
  hooks.add('reconcile', () => null)
  hooks.add('reconcile', () => new Set())
  hooks.add('reconcile', async () => ({ remove: new Set() }))
  t.equal(await hooks.reconcile(STATE, VIEWER), null, 'empty answers of every shape')
})

test('the answers merged: the removals of all, then the changes in the order added', async (t) => {
  const hooks = new CartHooks()
  const seen: unknown[] = []
  hooks.add('reconcile', (state, viewer) => { seen.push(state, viewer); return new Set(['a']) })
  hooks.add('reconcile', () => ({ change: (data) => ({ ...data, lines: data.lines.map((each) => ({ ...each, quantity: each.quantity * 10 })) }) }))
  hooks.add('reconcile', async () => ({ remove: new Set(['b']), change: (data) => ({ ...data, lines: data.lines.map((each) => ({ ...each, quantity: each.quantity + 1 })) }) }))
  const followUp = await hooks.reconcile(STATE, VIEWER)
  t.same(seen, [STATE, VIEWER], 'a hook is told the state and the viewer')
  t.same([...followUp!.remove!].sort(), ['a', 'b'], 'the union of the removals')
  const applied = applyFollowUp(cart(line('a'), line('b'), line('c', 2)), followUp!)
  t.same(applied.lines.map((each) => [each.key, each.quantity]), [['c', 21]], 'removed first, then ×10, then +1')
})

test('a hook removed is asked no more', async (t) => {
  const hooks = new CartHooks()
  const remove = hooks.add('reconcile', () => new Set(['a']))
  t.not(await hooks.reconcile(STATE, VIEWER), null)
  remove()
  t.equal(await hooks.reconcile(STATE, VIEWER), null)
})

test('applyFollowUp: a key no line has removes nothing; without a change the data is as removed', async (t) => {
  const data = cart(line('a'), line('b'))
  t.equal(applyFollowUp(data, { remove: new Set(['zz']) }).lines.length, 2)
  t.equal(applyFollowUp(data, {}), data, 'an empty follow-up answers the data itself')
  t.same(applyFollowUp(data, { remove: new Set(['a']) }).lines.map((each) => each.key), ['b'])
  t.same(data.lines.map((each) => each.key), ['a', 'b'], 'the data given is not changed')
})

test('rewards hooks: the last one added is in force; removing it brings back the one before', async (t) => {
  const hooks = new CartHooks()
  const hook = (name: string): CartRewards => ({ prepare: async () => {}, adjust: () => null, lineAdjuster: () => null, report: () => {}, name } as CartRewards & { name: string })
  t.equal(hooks.rewards, undefined, 'none at first')
  const drawer = hook('drawer')
  const removeDrawer = hooks.add('rewards', drawer)
  const kit = hook('kit')
  const removeTest = hooks.add('rewards', kit)
  t.equal(hooks.rewards, kit, 'the later one stands in')
  removeTest()
  t.equal(hooks.rewards, drawer, 'its removal brings back the earlier one')
  removeTest()
  t.equal(hooks.rewards, drawer, 'removing twice changes nothing')
  removeDrawer()
  t.equal(hooks.rewards, undefined, 'none once both are removed')
})
