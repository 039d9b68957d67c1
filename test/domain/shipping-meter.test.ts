import { test } from 'tap'
import { shippingMeter } from '../../domain/shipping-meter.ts'

test('remaining and progress below, at and above the threshold', async (t) => {
  t.same(shippingMeter(5000, 1250), { threshold: 5000, basis: 1250, remaining: 3750, progress: 0.25, reached: false })
  t.same(shippingMeter(5000, 4999), { threshold: 5000, basis: 4999, remaining: 1, progress: 0.9998, reached: false })
  t.same(shippingMeter(5000, 5000), { threshold: 5000, basis: 5000, remaining: 0, progress: 1, reached: true }, 'exactly at the threshold is reached')
  t.same(shippingMeter(5000, 9000), { threshold: 5000, basis: 9000, remaining: 0, progress: 1, reached: true })
  t.same(shippingMeter(5000, 0), { threshold: 5000, basis: 0, remaining: 5000, progress: 0, reached: false })
})

test('a zero threshold, negative input and a free-shipping coupon', async (t) => {
  t.same(shippingMeter(0, 0), { threshold: 0, basis: 0, remaining: 0, progress: 1, reached: true })
  t.same(shippingMeter(5000, -300), { threshold: 5000, basis: 0, remaining: 5000, progress: 0, reached: false })
  t.same(shippingMeter(5000, 1000, true), { threshold: 5000, basis: 1000, remaining: 0, progress: 1, reached: true })
})
