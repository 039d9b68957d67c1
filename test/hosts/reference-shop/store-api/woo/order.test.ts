/**
 * WooCommerce's Store API order route, as its route tests pin it down (plugins/woocommerce/tests/php/src/Blocks/
 * StoreApi/Routes/Order.php): who may read a placed order. Written again for this platform over HTTP.
 *
 * Covered: test_guest_can_access_guest_order_with_valid_credentials, …_with_different_case_email,
 * test_guest_cannot_access_guest_order_with_invalid_key, …_with_invalid_email, …_without_email,
 * test_logged_in_user_cannot_access_guest_order_without_credentials, …_with_invalid_key, …_with_invalid_email,
 * test_logged_in_user_can_access_guest_order_with_valid_credentials, test_customer_can_access_own_order,
 * test_customer_cannot_access_other_customer_order, test_guest_cannot_access_customer_order,
 * test_non_existent_order_returns_404, test_subscriber_cannot_access_guest_order (every logged-in shopper is a
 * customer here), test_guest_order_without_billing_email_can_be_accessed_with_empty_email, …_cannot_be_accessed_with_wrong_email.
 * Deliberately different: test_response_matches_schema and the item_data tests (orders keep no item meta data:
 * `item_data` is not part of this platform's order answer).
 */
import { test } from 'tap'
import type { FastifyInstance } from 'fastify'
import type { NewOrder } from '../../../../../kernel/domain/types.ts'
import { hashPassword } from '../../../../../hosts/reference-shop/index.ts'
import { build, STORE_API, TEST_PASSWORD_HASHING } from '../../../../helper.ts'

const PASSWORD = 'correct horse battery'

async function login (app: FastifyInstance, email: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/account/login', payload: { email, password: PASSWORD } })
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`)
  const cookie = [response.headers['set-cookie']].flat().map(String).find((value) => value.startsWith('svc_session='))
  return cookie!.split(';')[0]!
}

function order (overrides: Partial<NewOrder>): NewOrder {
  const address = { firstName: 'Guest', lastName: 'User', company: '', address1: '1 Road', address2: '', city: 'Town', state: '', postcode: 'AB1', country: 'GB', phone: '' }
  return {
    key: `wc_order_${Math.random().toString(36).slice(2, 15).padEnd(13, 'x')}`,
    status: 'processing',
    customerId: null,
    billing: { ...address, email: 'guest@example.com' },
    shipping: address,
    customerNote: '',
    paymentMethod: 'cod',
    paymentMethodTitle: 'Cash on delivery',
    lines: [{ key: 'f'.repeat(32), productId: 101, variationId: 0, name: 'Beanie', sku: '', variation: {}, quantity: 1, unitPrice: 1800, subtotal: 1800, subtotalTax: 180, total: 1800, totalTax: 180 }],
    coupons: [],
    fees: [],
    shippingLines: [],
    totals: { totalItems: 1800, totalItemsTax: 180, totalFees: 0, totalFeesTax: 0, totalDiscount: 0, totalDiscountTax: 0, totalShipping: 0, totalShippingTax: 0, totalPrice: 1980, totalTax: 180, taxLines: [{ name: 'Tax', price: 180, rate: '10%' }] },
    currency: 'USD',
    createdAt: '2026-11-24T10:00:00.000Z',
    ...overrides
  }
}

test('Store API order/{id} (WooCommerce Order.php)', async (t) => {
  const app = await build(t)
  const { storage } = app.shop
  const customers = await Promise.all(['customer1@test.com', 'customer2@test.com'].map(async (email) =>
    storage.ensureUser({ email, displayName: email, passwordHash: await hashPassword(PASSWORD, TEST_PASSWORD_HASHING), capabilities: [] })))
  const [one, two] = await Promise.all(customers.map((customer) => login(app, customer.email)))

  const read = (id: number, query: Record<string, string> = {}, cookie?: string) => app.inject({
    method: 'GET',
    url: `${STORE_API}/order/${id}`,
    query,
    headers: cookie ? { cookie } : {}
  })

  const guest = await storage.createOrder(order({}), { stock: [], coupons: [] })
  const own = await storage.createOrder(order({ customerId: customers[0]!.id, billing: { ...order({}).billing, email: 'customer1@test.com' } }), { stock: [], coupons: [] })
  const noEmail = await storage.createOrder(order({ billing: { ...order({}).billing, email: '' } }), { stock: [], coupons: [] })

  t.test('a guest reads a guest order with its key and billing e-mail (any case)', async (t) => {
    const response = await read(guest.id, { key: guest.key, billing_email: 'guest@example.com' })
    t.equal(response.statusCode, 200, response.body)
    t.equal(response.json().id, guest.id)
    t.equal(response.json().totals.total_price, '1980')
    t.equal(response.json().totals.tax_lines[0].rate, '10%')
    t.equal(response.json().items[0].name, 'Beanie')
    t.match(String(response.headers['cache-control']), /no-store/, 'an order is never cached')
    t.equal((await read(guest.id, { key: guest.key, billing_email: 'GUEST@EXAMPLE.COM' })).statusCode, 200)
  })

  t.test('a wrong key, a wrong e-mail or none: 401', async (t) => {
    const wrongKey = await read(guest.id, { key: 'invalid_key', billing_email: 'guest@example.com' })
    t.equal(wrongKey.statusCode, 401)
    t.equal(wrongKey.json().code, 'woocommerce_rest_invalid_order')
    const wrongEmail = await read(guest.id, { key: guest.key, billing_email: 'wrong@example.com' })
    t.equal(wrongEmail.statusCode, 401)
    t.equal(wrongEmail.json().code, 'woocommerce_rest_invalid_billing_email')
    t.equal((await read(guest.id, { key: guest.key })).statusCode, 401)
    t.notMatch(wrongEmail.body, /Beanie|1980/, 'nothing of the order leaks')
  })

  t.test('a logged-in shopper needs the key and e-mail for a guest order too', async (t) => {
    t.equal((await read(guest.id, {}, one)).statusCode, 401)
    t.equal((await read(guest.id, { key: 'invalid_key', billing_email: 'guest@example.com' }, one)).statusCode, 401)
    t.equal((await read(guest.id, { key: guest.key, billing_email: 'wrong@example.com' }, one)).statusCode, 401)
    const valid = await read(guest.id, { key: guest.key, billing_email: 'guest@example.com' }, one)
    t.equal(valid.statusCode, 200)
    t.equal(valid.json().id, guest.id)
  })

  t.test('a customer reads their own order; anyone else gets 403', async (t) => {
    const mine = await read(own.id, {}, one)
    t.equal(mine.statusCode, 200)
    t.equal(mine.json().id, own.id)
    const other = await read(own.id, {}, two)
    t.equal(other.statusCode, 403)
    t.equal(other.json().code, 'woocommerce_rest_invalid_user')
    t.equal((await read(own.id, { key: own.key, billing_email: 'customer1@test.com' })).statusCode, 403, 'a guest, even with the key')
  })

  t.test('an unknown order is 404; a bad id is 400', async (t) => {
    const missing = await read(999_999_999, {}, one)
    t.equal(missing.statusCode, 404)
    t.equal(missing.json().code, 'woocommerce_rest_invalid_order')
    const bad = await app.inject({ url: `${STORE_API}/order/abc` })
    t.equal(bad.statusCode, 400)
    t.equal(bad.json().code, 'rest_invalid_param')
  })

  t.test('a guest order without a billing e-mail: the key alone, no e-mail given', async (t) => {
    t.equal((await read(noEmail.id, { key: noEmail.key })).statusCode, 200)
    t.equal((await read(noEmail.id, { key: noEmail.key, billing_email: 'any@example.com' })).statusCode, 401)
  })
})
