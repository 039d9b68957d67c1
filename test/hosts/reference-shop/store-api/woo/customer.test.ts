/**
 * A port of WooCommerce's `Cart` route tests of `cart/update-customer` and of `cart/select-shipping-rate`
 * (Cart.php: test_update_customer, test_update_customer_address, test_update_customer_virtual_cart;
 * CartSelectShippingRate).
 * Deliberately different: the platform has no virtual products, so test_update_customer_virtual_cart is tested on an
 * empty cart (no shipping rates); WooCommerce accepts any rate id and falls back to the first rate when it is not
 * offered; so do we (no 400 for an unknown rate); the customer-update action hook has no counterpart.
 */
import { test } from 'tap'
import { shopperWith, wooApp } from './helpers.ts'

const ADDRESS = {
  first_name: 'Han',
  last_name: 'Solo',
  address_1: 'Test address 1',
  address_2: 'Test address 2',
  city: 'Test City',
  state: 'AL',
  postcode: '90210',
  country: 'US'
}

test('WooCommerce update-customer and select-shipping-rate tests', async (t) => {
  const app = await wooApp(t)

  t.test('test_update_customer: the shipping destination follows the address', async (t) => {
    const shopper = await shopperWith(app, [[105, 1]])
    const response = await shopper.request('POST', 'cart/update-customer', { shipping_address: { country: 'US' } })
    t.equal(response.statusCode, 200)
    t.same(response.json().shipping_rates[0].destination, { address_1: '', address_2: '', city: '', state: '', postcode: '', country: 'US' })
  })

  t.test('test_update_customer_address: valid, bad country, named state, bad state, bad postcode', async (t) => {
    const shopper = await shopperWith(app, [[105, 1]])
    const ok = await shopper.request('POST', 'cart/update-customer', { shipping_address: ADDRESS })
    t.equal(ok.statusCode, 200)
    t.same(ok.json().shipping_rates[0].destination, {
      address_1: 'Test address 1', address_2: 'Test address 2', city: 'Test City', state: 'AL', postcode: '90210', country: 'US'
    })
    t.equal(ok.json().shipping_address.first_name, 'Han')
    for (const [name, change] of [['country', { country: 'ZZZZZZZZ' }], ['state', { state: 'ZZZZZZZZ' }], ['postcode', { postcode: 'ABCDE' }]] as const) {
      const refused = await shopper.request('POST', 'cart/update-customer', { shipping_address: { ...ADDRESS, ...change } })
      t.equal(refused.statusCode, 400, `a bad ${name}`)
      t.equal(refused.json().code, 'rest_invalid_param')
    }
    const named = await shopper.request('POST', 'cart/update-customer', { shipping_address: { ...ADDRESS, state: 'Alabama' } })
    t.equal(named.statusCode, 200)
    t.equal(named.json().shipping_rates[0].destination.state, 'AL')
  })

  t.test('billing address with e-mail; an invalid e-mail is a 400 and nothing changes', async (t) => {
    const shopper = await shopperWith(app, [])
    const ok = await shopper.request('POST', 'cart/update-customer', { billing_address: { ...ADDRESS, email: 'testaccount@test.com' } })
    t.equal(ok.statusCode, 200)
    t.equal(ok.json().billing_address.email, 'testaccount@test.com')
    t.equal(ok.json().billing_address.city, 'Test City')
    t.same(ok.json().shipping_rates, [], 'an empty cart has no rates (test_update_customer_virtual_cart)')
    const bad = await shopper.request('POST', 'cart/update-customer', { billing_address: { email: 'not-an-email' } })
    t.equal(bad.statusCode, 400)
    t.equal(bad.json().code, 'rest_invalid_param')
    t.equal((await shopper.cart()).json().billing_address.email, 'testaccount@test.com')
  })

  t.test('select-shipping-rate: flat rate over free shipping, and back', async (t) => {
    const shopper = await shopperWith(app, [[105, 1]], ['freeship'])
    const before = (await shopper.cart()).json()
    t.same(before.shipping_rates[0].shipping_rates.map((r: { rate_id: string, selected: boolean }) => [r.rate_id, r.selected]),
      [['free_shipping:1', true], ['flat_rate:1', false]])
    t.equal(before.totals.total_shipping, '0')
    const flat = await shopper.request('POST', 'cart/select-shipping-rate', { package_id: 0, rate_id: 'flat_rate:1' })
    t.equal(flat.statusCode, 200)
    t.equal(flat.json().totals.total_shipping, '500')
    t.same(flat.json().shipping_rates[0].shipping_rates.map((r: { selected: boolean }) => r.selected), [false, true])
    const unknown = await shopper.request('POST', 'cart/select-shipping-rate', { rate_id: 'nope:9' })
    t.equal(unknown.statusCode, 200, 'kept as WooCommerce keeps it')
    t.equal(unknown.json().totals.total_shipping, '0', 'not offered: the first rate applies')
    const missing = await shopper.request('POST', 'cart/select-shipping-rate', { package_id: 0 })
    t.equal(missing.statusCode, 400)
  })
})
