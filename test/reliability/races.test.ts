import type { AddressInfo } from 'node:net'
import { test, type Test } from 'tap'
import { seedDemoShop, seedDemoUsers } from '../../seed/seed.ts'
import type { Storage } from '../../storage/contract/index.ts'
import { SITE_URL, STORE_API, TEST_PASSWORD_HASHING } from '../helpers/app.ts'
import { report } from '../helpers/reliability-report.ts'
import { buildSecurityApp, login, SVC, USERS } from '../helpers/security.ts'
import { storageBackends } from '../helpers/storage-backends.ts'

/**
 * Real parallel HTTP on one cart: 100 mixed writes at once (add, update, remove-items, coupon on and off, add-on
 * toggle, bundle add) must end as some serial order would — nothing lost, no line twice, totals that add up — and
 * two settings saves against the same version must give exactly one 409. On PostgreSQL (row locks across a pool
 * of connections) and on PGlite.
 */

type Json = Record<string, any>

const STICKERS = { id: 'stickers', product_id: 117, label: 'Stickers', description: '', conditions: { match: 'all', conditions: [] } }
const PAIR = { id: 'pair', title: 'Pair', description: '', discount_percent: 10, slots: [{ label: 'Cap', product_ids: [103] }, { label: 'Sunglasses', product_ids: [104] }] }

interface Op { name: string, method: string, path: string, body: unknown }

/** The 100 writes: products 105 and 107 are only ever added to, so their quantities must equal the sum of the adds. */
function writes (lineOf101: string, lineOf102: string): Op[] {
  const ops: Op[] = []
  for (let i = 0; i < 100; i++) {
    switch (i % 8) {
      case 0: ops.push({ name: 'add 105', method: 'POST', path: `${STORE_API}/cart/add-item`, body: { id: 105, quantity: 1 + (i % 3) } }); break
      case 1: ops.push({ name: 'add 107', method: 'POST', path: `${STORE_API}/cart/add-item`, body: { id: 107, quantity: 1 } }); break
      case 2: ops.push({ name: 'update 101', method: 'POST', path: `${STORE_API}/cart/update-item`, body: { key: lineOf101, quantity: 1 + (i % 5) } }); break
      case 3: ops.push({ name: 'remove 102', method: 'POST', path: `${SVC}/cart/remove-items`, body: { keys: [lineOf102] } }); break
      case 4: ops.push({ name: i % 16 === 4 ? 'coupon on' : 'coupon off', method: i % 16 === 4 ? 'POST' : 'DELETE', path: `${SVC}/coupon`, body: { code: 'save10' } }); break
      case 5: ops.push({ name: 'toggle stickers', method: 'POST', path: `${SVC}/smart-addons/toggle`, body: { addon_id: 'stickers', active: i % 16 === 5 } }); break
      case 6: ops.push({ name: 'bundle add', method: 'POST', path: `${SVC}/bundle-builder/add`, body: { bundle_id: 'pair', product_ids: [103, 104] } }); break
      default: ops.push({ name: 'add 105', method: 'POST', path: `${STORE_API}/cart/add-item`, body: { id: 105, quantity: 1 } })
    }
  }
  return ops
}

async function racesOn (t: Test, storage: Storage) {
  await seedDemoShop(storage, SITE_URL)
  await seedDemoUsers(storage, USERS, TEST_PASSWORD_HASHING)
  const { app } = await buildSecurityApp(t, { storage })
  const saved = await app.settings.save({ smart_addons: { addons: [STICKERS] }, bundles: { enabled: true, bundles: [PAIR] } })
  t.ok(saved.ok, 'an add-on and a bundle configured')
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`

  let token = ''
  async function call (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(token ? { 'cart-token': token } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    return { status: response.status, json: await response.json() as Json, token: response.headers.get('cart-token') }
  }
  token = (await call('GET', `${STORE_API}/cart`)).token!
  await call('POST', `${STORE_API}/cart/add-item`, { id: 101, quantity: 1 })
  const start = await call('POST', `${STORE_API}/cart/add-item`, { id: 102, quantity: 1 })
  const keyOf = (cart: Json, id: number) => (cart.items as Json[]).find((item) => item.id === id)!.key as string
  const ops = writes(keyOf(start.json, 101), keyOf(start.json, 102))

  const began = performance.now()
  const answers = await Promise.all(ops.map(async (op) => ({ op, ...(await call(op.method, op.path, op.body)) })))
  const wallMs = performance.now() - began
  const final = (await call('GET', `${STORE_API}/cart`)).json
  const drawer = (await call('GET', `${SVC}/cart`)).json

  const ok = (name: string) => answers.filter((answer) => answer.op.name === name && answer.status < 300)
  const unexpected = answers.filter(({ status }) => status >= 500 || status === 429 || status === 403)
  t.same(unexpected.map(({ op, status, json }) => `${op.name}: ${status} ${json.code}`), [], 'no write failed for a reason a serial order would not give (5xx, 403, 429)')

  const items = final.items as Json[]
  const quantityOf = (id: number) => items.filter((item) => item.id === id).reduce((sum, item) => sum + item.quantity, 0)
  const addedOf = (name: string) => ok(name).reduce((sum, { op }) => sum + (op.body as { quantity: number }).quantity, 0)
  t.equal(quantityOf(105), addedOf('add 105'), `105: every successful add counted (${ok('add 105').length} adds)`)
  t.equal(quantityOf(107), addedOf('add 107'), `107: every successful add counted (${ok('add 107').length} adds)`)
  t.equal(ok('remove 102').length, 1, 'remove-items of the one 102 line succeeded exactly once (the others: 409)')
  t.equal(quantityOf(102), 0, '102 is gone')
  const bundles = ok('bundle add').length
  t.equal(quantityOf(103), bundles, `103: one per successful bundle add (${bundles})`)
  t.equal(quantityOf(104), bundles, `104: one per successful bundle add (${bundles})`)
  const updates = ok('update 101')
  t.ok(updates.some(({ json }) => json.items?.find((item: Json) => item.id === 101)?.quantity === quantityOf(101)),
    `101's quantity (${quantityOf(101)}) is the one a successful update set`)
  t.ok(quantityOf(117) <= 1, 'the add-on line at most once')
  const couponsOn = ok('coupon on').length - ok('coupon off').length
  t.ok(couponsOn === 0 || couponsOn === 1, `coupon applied ${ok('coupon on').length} times and removed ${ok('coupon off').length} times: alternating, as in a serial order`)
  t.equal((final.coupons as Json[]).length, couponsOn, 'and the cart holds it exactly when the last successful change applied it')

  const keys = items.map((item) => item.key as string)
  t.equal(new Set(keys).size, keys.length, 'no line key twice')
  const plain = items.filter((item) => ![103, 104, 117].includes(item.id)).map((item) => item.id)
  t.equal(new Set(plain).size, plain.length, 'no product twice in plain lines')
  const itemsTotal = items.reduce((sum, item) => sum + Number(item.totals.line_subtotal), 0)
  t.equal(Number(final.totals.total_items), itemsTotal, 'total_items is the sum of the lines')
  t.equal(Number(final.totals.total_price), Number(final.totals.total_items) + Number(final.totals.total_items_tax) +
    Number(final.totals.total_fees) + Number(final.totals.total_fees_tax) - Number(final.totals.total_discount) - Number(final.totals.total_discount_tax) +
    Number(final.totals.total_shipping ?? 0) + Number(final.totals.total_shipping_tax ?? 0), 'total_price adds up')
  t.equal(drawer.cartCount, items.reduce((sum, item) => sum + item.quantity, 0), 'the drawer counts the same lines')
  // The final state is the state one successful write answered with: the write that committed last.
  const signature = (cart: Json) => JSON.stringify((cart.items ?? []).map((item: Json) => [item.key, item.quantity]))
  t.ok(answers.some(({ status, json }) => status < 300 && json.items !== undefined && signature(json) === signature(final)) ||
    answers.some(({ status, json }) => status < 300 && json.cartItems !== undefined &&
      JSON.stringify(json.cartItems.map((item: Json) => [item.key, item.quantity])) === signature(final)),
  'the final cart is the answer of one successful write (the last in the serial order)')

  // Two settings saves against the same version: exactly one wins.
  const admin = await login(app, USERS.admin)
  const asAdmin = { cookie: admin.cookie, 'x-wp-nonce': admin.nonce }
  const conflicts: number[] = []
  for (let round = 0; round < 5; round++) {
    const { version } = (await call('GET', `${SVC}/settings`, undefined, asAdmin)).json as { version: number }
    const pair = await Promise.all(['left', 'right'].map((position) =>
      call('POST', `${SVC}/settings`, { settings: { drawer_config: { position } }, version }, asAdmin)))
    const statuses = pair.map(({ status }) => status).sort()
    t.same(statuses, [200, 409], `round ${round + 1}: one save wins, the other answers 409`)
    const loser = pair.find(({ status }) => status === 409)
    t.equal(loser?.json.code, 'svc_settings_conflict', `round ${round + 1}: svc_settings_conflict`)
    conflicts.push(statuses.filter((status) => status === 409).length)
  }
  report('races', { concurrentWrites: ops.length, wallMs: Math.round(wallMs), succeeded: answers.filter(({ status }) => status < 300).length, settingsConflicts: conflicts.reduce((a, b) => a + b, 0) })
}

// PostgreSQL where there is one (always in CI): real connections in parallel; else PGlite.
for (const backend of [storageBackends().find((candidate) => candidate.skip === false && candidate.name === 'postgres') ?? storageBackends()[0]!]) {
  test(`concurrent writes on one cart and concurrent settings saves (${backend.name})`, { timeout: 90_000 }, async (t) => {
    const storage = await backend.create()
    t.teardown(() => storage.dispose())
    await racesOn(t, storage)
  })
}
