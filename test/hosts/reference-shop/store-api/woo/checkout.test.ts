/**
 * WooCommerce's Store API checkout, as its route tests pin it down (plugins/woocommerce/tests/php/src/Blocks/StoreApi/
 * Routes/Checkout.php), written again for this platform over HTTP.
 *
 * 42 test methods there. Covered (18): test_post_data, test_invalid_payment_method_post_data,
 * test_out_of_stock_post_data, test_usage_limit_coupon_post_data, test_coupon_post_data, test_invalid_post_data (empty
 * address line, invalid state, no state), test_post_invalid_extension_data, test_passing_partial_extension_data,
 * test_not_passing_extensions_data, test_checkout_do_not_create_account, test_checkout_invalid_address_data,
 * test_put_order_invalid_payment_method, test_put_order_invalid_order_notes, test_payment_method_is_cleared_for_free_order,
 * test_custom_status_with_payment_when_added_to_valid_statuses (the gateway sets the status: bank transfer on-hold),
 * test_get_does_not_create_draft_order, test_put_does_not_create_draft_order, test_post_creates_order_… (the order, not
 * the action).
 * Deliberately different (24; docs/decisions/checkout-and-orders.md): test_virtual_product_post_data (no virtual
 * products: every cart ships), test_unowned_coupon_post_data (no coupon e-mail restrictions),
 * test_locale_required_filtering_post_data and test_locale_label_filtering_post_data (no locale filters),
 * test_options_extension_data and test_post_extension_data (no checkout extension schemas), test_checkout_create_account
 * and test_checkout_force_create_account (no accounts made at checkout), test_checkout_invalid_shipping_method (the flat
 * rate is always offered), test_checkout_deny_guest_checkout (guest checkout is always on), test_put_order_update
 * (no additional checkout fields), test_perform_custom_order_validation (PHP-internal), the three local pickup and
 * allowed-country tests (no pickup, every country sold to), the three custom-status tests but the one above and the
 * seven action/hook tests (no WordPress actions), test_post_reuses_pending_order_from_session_on_retry (a failed
 * checkout leaves no pending order to reuse).
 */
import { test, type Test } from 'tap'
import type { LightMyRequestResponse } from 'fastify'
import { makeProduct } from '../../../../kernel/domain/fixtures.ts'
import { build, STORE_API } from '../../../../helper.ts'
import { Shopper } from '../../../../helpers/store-api-shopper.ts'
const ADDRESS = {
  first_name: 'test',
  last_name: 'test',
  company: '',
  address_1: 'test',
  address_2: '',
  city: 'test',
  state: '',
  postcode: 'cb241ab',
  country: 'GB',
  phone: ''
}
const BILLING = { ...ADDRESS, email: 'testaccount@test.com' }

function checkout (shopper: Shopper, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return shopper.request('POST', 'checkout', { billing_address: BILLING, shipping_address: ADDRESS, payment_method: 'bacs', ...body })
}

test('Store API checkout (WooCommerce Checkout.php)', async (t) => {
  const app = await build(t)
  const { storage } = app.shop
  // Products of this file's own, after the demo catalog's ids.
  await storage.upsertProducts([
    makeProduct({ id: 9001, name: 'Test Product 1', slug: 'test-product-1', regularPrice: 1000, manageStock: true, stockQuantity: 1000 }),
    makeProduct({ id: 9002, name: 'Test Product 2', slug: 'test-product-2', regularPrice: 1000 })
  ])
  await storage.upsertCoupons([
    { code: 'test_coupon_code', discountType: 'fixed_cart', amount: 200, freeShipping: false, expiresAt: null, usageLimit: null, usageCount: 0, minimumAmount: null, description: '' }
  ])

  /** A shopper with WooCommerce's fixture cart: two of product 1 and one of product 2. */
  async function shopperWithCart (t: Test): Promise<Shopper> {
    const shopper = new Shopper(app)
    await shopper.cart() // a Store API client starts with a cart read: it brings the Cart-Token
    const first = await shopper.add(9001, 2)
    t.equal(first.statusCode, 201, first.body)
    const second = await shopper.add(9002, 1)
    t.equal(second.statusCode, 201, second.body)
    return shopper
  }

  t.test('test_post_data: an order is placed; the stock is taken and the cart emptied', async (t) => {
    const shopper = await shopperWithCart(t)
    const cartTotal = (await shopper.cart()).json().totals.total_price
    const stockBefore = (await storage.getProduct(9001))!.stockQuantity!
    const response = await checkout(shopper, {})
    t.equal(response.statusCode, 200, response.body)
    const body = response.json()
    t.same(Object.keys(body), ['order_id', 'status', 'order_key', 'order_number', 'customer_note', 'customer_id', 'billing_address',
      'shipping_address', 'payment_method', 'payment_result', 'additional_fields', 'extensions'])
    t.ok(body.order_id > 0)
    t.equal(body.status, 'on-hold', 'a bank transfer waits for the money')
    t.match(body.order_key, /^wc_order_[A-Za-z0-9]{13}$/)
    t.equal(body.order_number, String(body.order_id))
    t.equal(body.customer_id, 0, 'a guest')
    t.same(body.billing_address, { ...BILLING, postcode: 'cb241ab', country: 'GB' })
    t.equal(body.payment_method, 'bacs')
    t.same(body.payment_result, {
      payment_status: 'success',
      payment_details: [],
      redirect_url: `http://shop.test/checkout/order-received/${body.order_id}/?key=${body.order_key}`
    })
    t.match(String(response.headers['cache-control']), /no-store/)

    const order = await storage.getOrder(body.order_id)
    t.equal(String(order!.totals.totalPrice), cartTotal, 'the order has the cart\'s total')
    t.same(order!.lines.map((line) => [line.productId, line.quantity]), [[9001, 2], [9002, 1]])
    t.equal((await storage.getProduct(9001))!.stockQuantity, stockBefore - 2)
    const after = (await shopper.cart()).json()
    t.same(after.items, [], 'the cart is emptied')
    t.same(after.billing_address.email, 'testaccount@test.com', 'the addresses stay for the next order')
  })

  t.test('cash on delivery starts processing; the order reads back through order/{id}', async (t) => {
    const shopper = await shopperWithCart(t)
    const response = await checkout(shopper, { payment_method: 'cod', customer_note: 'Leave at the door.' })
    t.equal(response.statusCode, 200, response.body)
    const body = response.json()
    t.equal(body.status, 'processing')
    t.equal(body.customer_note, 'Leave at the door.')
    const read = await app.inject({ method: 'GET', url: `${STORE_API}/order/${body.order_id}?key=${body.order_key}&billing_email=testaccount@test.com` })
    t.equal(read.statusCode, 200, read.body)
    t.equal(read.json().payment_method, 'cod')
    t.equal(read.json().items.length, 2)
  })

  t.test('test_invalid_payment_method_post_data: 400, nothing changes', async (t) => {
    const shopper = await shopperWithCart(t)
    const stock = (await storage.getProduct(9001))!.stockQuantity
    const orders = (await storage.listOrders({})).total
    const response = await checkout(shopper, { payment_method: 'apples' })
    t.equal(response.statusCode, 400)
    t.equal(response.json().code, 'woocommerce_rest_checkout_payment_method_disabled')
    t.equal((await storage.getProduct(9001))!.stockQuantity, stock)
    t.equal((await storage.listOrders({})).total, orders)
    t.equal((await shopper.cart()).json().items.length, 2, 'the cart is kept')

    const missing = await shopper.request('POST', 'checkout', { billing_address: BILLING, shipping_address: ADDRESS })
    t.equal(missing.statusCode, 400)
    t.equal(missing.json().code, 'woocommerce_rest_checkout_missing_payment_method')
  })

  t.test('test_out_of_stock_post_data: 403, nothing changes', async (t) => {
    const shopper = await shopperWithCart(t)
    const product = (await storage.getProduct(9002))!
    await storage.upsertProducts([{ ...product, stockStatus: 'outofstock' }])
    t.teardown(() => storage.upsertProducts([product]))
    const orders = (await storage.listOrders({})).total
    const response = await checkout(shopper, {})
    t.equal(response.statusCode, 403)
    t.equal(response.json().code, 'woocommerce_rest_product_out_of_stock')
    t.match(response.json().message, /Test Product 2/)
    t.equal((await storage.listOrders({})).total, orders)
  })

  t.test('more than the stock left: 403 naming the product, nothing changes', async (t) => {
    await storage.upsertProducts([makeProduct({ id: 9003, name: 'Last One', slug: 'last-one', regularPrice: 700, manageStock: true, stockQuantity: 2 })])
    const shopper = new Shopper(app)
    await shopper.cart()
    t.equal((await shopper.add(9003, 2)).statusCode, 201)
    await storage.upsertProducts([{ ...(await storage.getProduct(9003))!, stockQuantity: 1 }])
    const response = await checkout(shopper, {})
    t.equal(response.statusCode, 403)
    t.match(response.json().message, /Last One/)
    t.equal((await storage.getProduct(9003))!.stockQuantity, 1)
  })

  t.test('test_usage_limit_coupon_post_data: a coupon at its usage limit is refused with 409', async (t) => {
    await storage.upsertCoupons([{ code: 'test', discountType: 'fixed_cart', amount: 200, freeShipping: false, expiresAt: null, usageLimit: null, usageCount: 0, minimumAmount: null, description: '' }])
    const first = await shopperWithCart(t)
    t.equal((await first.request('POST', 'cart/apply-coupon', { code: 'test' })).statusCode, 200)
    t.equal((await checkout(first, {})).statusCode, 200)
    t.equal((await storage.getCoupon('test'))!.usageCount, 1, 'the use is counted')

    const second = await shopperWithCart(t)
    t.equal((await second.request('POST', 'cart/apply-coupon', { code: 'test' })).statusCode, 200)
    await storage.upsertCoupons([{ ...(await storage.getCoupon('test'))!, usageLimit: 1 }])
    const stock = (await storage.getProduct(9001))!.stockQuantity
    const response = await checkout(second, {})
    t.equal(response.statusCode, 409)
    t.equal(response.json().code, 'woocommerce_rest_cart_coupon_errors')
    t.equal((await storage.getCoupon('test'))!.usageCount, 1)
    t.equal((await storage.getProduct(9001))!.stockQuantity, stock)
  })

  t.test('test_coupon_post_data: the order carries the coupon\'s discount', async (t) => {
    const shopper = await shopperWithCart(t)
    t.equal((await shopper.request('POST', 'cart/apply-coupon', { code: 'test_coupon_code' })).statusCode, 200)
    const response = await checkout(shopper, {})
    t.equal(response.statusCode, 200, response.body)
    const order = await storage.getOrder(response.json().order_id)
    t.equal(order!.totals.totalDiscount, 200)
    t.same(order!.coupons.map((coupon) => coupon.code), ['test_coupon_code'])
    t.equal((await storage.getCoupon('test_coupon_code'))!.usageCount, 1)
  })

  t.test('test_invalid_post_data: an incomplete or invalid US address is 400 rest_invalid_param', async (t) => {
    const shopper = await shopperWithCart(t)
    const us = { ...ADDRESS, postcode: '90210', country: 'US' }
    const cases = [
      { name: 'empty state and address line', billing: { ...BILLING, ...us, address_1: '' }, shipping: { ...us, last_name: '' } },
      { name: 'invalid state', billing: { ...BILLING, ...us, address_1: '', state: 'GG' }, shipping: { ...us, state: 'GG' } },
      { name: 'no state passed', billing: { ...BILLING, ...us, address_1: '' }, shipping: us }
    ]
    for (const { name, billing, shipping } of cases) {
      const response = await shopper.request('POST', 'checkout', { billing_address: billing, shipping_address: shipping, payment_method: 'bacs' })
      t.equal(response.statusCode, 400, name)
      t.equal(response.json().code, 'rest_invalid_param', name)
      t.ok(response.json().data.params.billing_address, name)
      t.ok(response.json().data.errors.billing.length > 0, name)
    }
    const bad = await shopper.request('POST', 'checkout', { billing_address: { ...BILLING, email: 'not-an-email' }, shipping_address: ADDRESS, payment_method: 'bacs' })
    t.equal(bad.statusCode, 400)
    t.match(bad.json().data.errors.billing.join(' '), /email/i)
    const country = await shopper.request('POST', 'checkout', { billing_address: { ...BILLING, country: 'ZZ' }, shipping_address: ADDRESS, payment_method: 'bacs' })
    t.equal(country.statusCode, 400)
    t.equal((await shopper.cart()).json().items.length, 2, 'nothing changed')
  })

  t.test('test_post_invalid_extension_data and partial or no extension data', async (t) => {
    const shopper = await shopperWithCart(t)
    const invalid = await checkout(shopper, { extensions: { extension_namespace: 'invalid-string' } })
    t.equal(invalid.statusCode, 400)
    t.equal(invalid.json().code, 'rest_invalid_param')
    t.equal((await checkout(shopper, { extensions: { other_extension_data: { another_key: true } } })).statusCode, 200)
    const again = await shopperWithCart(t)
    t.equal((await checkout(again, {})).statusCode, 200)
  })

  t.test('test_checkout_do_not_create_account: create_account is taken and no account is made', async (t) => {
    const shopper = await shopperWithCart(t)
    const response = await checkout(shopper, { create_account: false, billing_address: { ...BILLING, email: 'new-buyer@test.com' } })
    t.equal(response.statusCode, 200)
    t.equal(response.json().customer_id, 0)
    t.equal(await storage.getUserByEmail('new-buyer@test.com'), null)
  })

  t.test('an empty cart cannot be checked out', async (t) => {
    const shopper = new Shopper(app)
    await shopper.cart()
    const response = await checkout(shopper, {})
    t.equal(response.statusCode, 400)
    t.equal(response.json().code, 'woocommerce_rest_cart_empty')
  })

  t.test('GET and PUT checkout: the draft carries the cart\'s addresses; PUT stores them', async (t) => {
    const shopper = await shopperWithCart(t)
    const draft = await shopper.request('GET', 'checkout')
    t.equal(draft.statusCode, 200)
    t.equal(draft.json().order_id, 0)
    t.equal(draft.json().status, 'checkout-draft')
    t.equal(draft.json().billing_address.email, '')
    const put = await shopper.request('PUT', 'checkout', { billing_address: { email: 'later@test.com', city: 'Leeds' }, payment_method: 'cod' })
    t.equal(put.statusCode, 200, put.body)
    t.equal(put.json().billing_address.email, 'later@test.com')
    t.equal(put.json().payment_method, 'cod')
    t.equal((await shopper.cart()).json().billing_address.city, 'Leeds', 'the cart keeps the address')
    const wrong = await shopper.request('PUT', 'checkout', { payment_method: 'apples' })
    t.equal(wrong.statusCode, 400)
    // The order then takes the stored fields that the request leaves out.
    const placed = await shopper.request('POST', 'checkout', { billing_address: { ...BILLING, email: undefined, city: undefined }, payment_method: 'cod' })
    t.equal(placed.statusCode, 200, placed.body)
    t.equal(placed.json().billing_address.email, 'later@test.com')
    t.equal(placed.json().billing_address.city, 'Leeds')
  })

  t.test('test_checkout_invalid_address_data and test_put_order_invalid_order_notes: 400', async (t) => {
    const shopper = await shopperWithCart(t)
    const response = await checkout(shopper, { billing_address: { ...BILLING, last_name: { invalid: 'invalid_data' } } })
    t.equal(response.statusCode, 400)
    t.equal(response.json().code, 'rest_invalid_param')
    const notes = await shopper.request('PUT', 'checkout', { order_notes: { invalid: 'notes format' } })
    t.equal(notes.statusCode, 400)
    const note = await shopper.request('PUT', 'checkout', { customer_note: { invalid: 'notes format' } })
    t.equal(note.statusCode, 400)
  })

  t.test('test_payment_method_is_cleared_for_free_order: a free order needs and records no payment method', async (t) => {
    await storage.upsertProducts([makeProduct({ id: 9004, name: 'Free Sample', slug: 'free-sample', regularPrice: 0 })])
    await storage.upsertCoupons([{ code: 'allfree', discountType: 'percent', amount: 100, freeShipping: true, expiresAt: null, usageLimit: null, usageCount: 0, minimumAmount: null, description: '' }])
    const shopper = await Shopper.start(app)
    t.equal((await shopper.add(9004, 1)).statusCode, 201)
    t.equal((await shopper.request('POST', 'cart/apply-coupon', { code: 'allfree' })).statusCode, 200)
    t.equal((await shopper.cart()).json().totals.total_price, '0', 'the cart is free')
    const response = await checkout(shopper, { payment_method: '' })
    t.equal(response.statusCode, 200, response.body)
    t.equal(response.json().payment_method, '')
    t.equal((await storage.getOrder(response.json().order_id))!.paymentMethod, '')
  })

  t.test('test_get_does_not_create_draft_order and test_put_does_not_create_draft_order', async (t) => {
    const shopper = await shopperWithCart(t)
    const before = (await storage.listOrders({})).total
    const get = await shopper.request('GET', 'checkout')
    t.equal(get.json().order_id, 0)
    const put = await shopper.request('PUT', 'checkout', { payment_method: 'bacs' })
    t.equal(put.statusCode, 200)
    t.equal(put.json().order_id, 0)
    t.equal(put.json().payment_method, 'bacs', 'the chosen method is answered')
    t.equal((await storage.listOrders({})).total, before, 'no order row for a draft')
  })

  t.test('bad input is a 400 in the WordPress shape', async (t) => {
    const shopper = await shopperWithCart(t)
    for (const payload of [{}, { billing_address: 'x' }, { billing_address: BILLING, payment_method: 5 }, { billing_address: { ...BILLING, first_name: 'x'.repeat(1000) } }, { billing_address: BILLING, unknown: 1 }]) {
      const response = await shopper.request('POST', 'checkout', payload)
      t.equal(response.statusCode, 400, JSON.stringify(payload).slice(0, 60))
      t.equal(typeof response.json().code, 'string')
      t.equal(response.json().data.status, 400)
    }
  })
})
