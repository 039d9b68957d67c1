import { test } from 'tap'
import { percentOf, roundDiv, taxOn } from '../../../kernel/domain/rounding.ts'

test('roundDiv rounds half away from zero', async (t) => {
  t.equal(roundDiv(5, 2), 3)
  t.equal(roundDiv(4, 3), 1)
  t.equal(roundDiv(-5, 2), -3)
  t.equal(roundDiv(-1, 4), 0)
  t.ok(Object.is(roundDiv(-1, 4), 0), 'no negative zero')
})

test('percentOf and taxOn', async (t) => {
  t.equal(percentOf(1005, 10), 101, '100.5 → 101')
  t.equal(percentOf(850, 7.25), 62, '61.625 → 62')
  t.equal(percentOf(1000, 33.3333), 333)
  t.equal(taxOn(1000, 0), 0)
  t.equal(taxOn(-1005, 10), -101, 'negative amounts (discount fees) round symmetrically')
})
