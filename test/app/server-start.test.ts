import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type Test } from 'tap'
import { DEFAULT_DEMO_USERS, PUBLISHED_SECRETS } from '../../config/env.ts'
import { freePort, spawnServer, type SpawnedServer } from '../helpers/server-process.ts'
import { waitFor } from '../helper.ts'

/**
 * `server.ts` as a newcomer starts it: a process with no environment but PATH, HOME, a free PORT and a data folder
 * of its own — no HOST, no SVC_SITE_URL, no DATABASE_URL, no NODE_ENV.
 */
async function runServer (t: Test, env: Record<string, string>): Promise<SpawnedServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-start-'))
  const started = spawnServer({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(await freePort()), SVC_DATA_DIR: dataDir, ...env })
  t.teardown(async () => {
    if (started.child.exitCode === null) started.child.kill('SIGTERM')
    await started.exited
    await rm(dataDir, { recursive: true, force: true })
  })
  return started
}

/** Waits for the banner and returns its `name   value` lines. */
async function banner (started: SpawnedServer): Promise<Map<string, string>> {
  const state = await waitFor(() => started.child.exitCode !== null ? 'exited' : /^ {2}storefront +\S+/m.test(started.output()) && 'banner',
    { timeoutMs: 60_000, intervalMs: 100, what: 'the banner' }).catch(() => { throw new Error(`no banner within 60 s:\n${started.output()}`) })
  if (state === 'exited') throw new Error(`the server exited:\n${started.output()}`)
  const lines = new Map<string, string>()
  for (const match of started.output().matchAll(/^ {2}(\S+(?: \S+)?) {2,}(.+)$/gm)) lines.set(match[1]!, match[2]!)
  return lines
}

test('npm start with no environment: the printed address works for the shopper and the shop manager', { timeout: 90_000 }, async (t) => {
  const lines = await banner(await runServer(t, {}))
  const storefront = lines.get('storefront')!
  const origin = new URL(storefront).origin
  t.equal(lines.get('admin screen'), `${origin}/admin/cart-drawer/`, 'the banner names the admin screen')
  t.equal(lines.get('OpenAPI'), `${origin}/openapi.json`, 'and the OpenAPI document')
  t.equal(lines.get('shop manager'), `${DEFAULT_DEMO_USERS.admin.email} / ${DEFAULT_DEMO_USERS.admin.password}`)
  t.equal(lines.get('shopper'), `${DEFAULT_DEMO_USERS.shopper.email} / ${DEFAULT_DEMO_USERS.shopper.password}`)
  for (const name of ['storefront', 'OpenAPI']) t.equal((await fetch(lines.get(name)!)).status, 200, `${name} answers 200`)
  const loginForm = await fetch(lines.get('admin screen')!)
  t.equal(loginForm.status, 401, 'the admin screen asks a guest to log in')
  t.match(await loginForm.text(), /<form/)

  // The same origin as the printed address, and the other loopback name a shopper may type.
  for (const base of [origin, origin.replace('localhost', '127.0.0.1')]) {
    const store = `${base}/wp-json/wc/store/v1`
    const svc = `${base}/wp-json/svc/v1`
    const cart = await fetch(`${store}/cart`)
    const token = cart.headers.get('cart-token')!
    const added = await fetch(`${store}/cart/add-item`, { method: 'POST', headers: { 'content-type': 'application/json', 'cart-token': token, origin: base }, body: JSON.stringify({ id: 101, quantity: 1 }) })
    t.equal(added.status, 201, `${base}: a product added`)
    const coupon = await fetch(`${svc}/coupon`, { method: 'POST', headers: { 'content-type': 'application/json', 'cart-token': token, origin: base }, body: JSON.stringify({ code: 'save10' }) })
    t.equal(coupon.status, 200, `${base}: the drawer applies a coupon`)
    t.match(await coupon.json(), { coupons: [{ code: 'save10' }] })

    const login = await fetch(`${base}/account/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify(DEFAULT_DEMO_USERS.admin) })
    t.equal(login.status, 200, `${base}: the shop manager logs in`)
    const { nonce } = await login.json() as { nonce: string }
    const admin = { cookie: login.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; '), 'x-wp-nonce': nonce, referer: `${base}/admin/cart-drawer/` }
    t.equal((await fetch(`${base}/admin/cart-drawer/`, { headers: admin })).status, 200, `${base}: the admin screen opens`)
    const settings = await fetch(`${svc}/settings`, { headers: admin })
    t.equal(settings.status, 200, `${base}: the settings screen loads its settings`)
    const { version } = await settings.json() as { version: number }
    const saved = await fetch(`${svc}/settings`, { method: 'POST', headers: { ...admin, origin: base, 'content-type': 'application/json' }, body: JSON.stringify({ settings: { enabled: true }, version }) })
    t.equal(saved.status, 200, `${base}: and saves them`)
  }
})

test('NODE_ENV=production refuses a missing or published secret and a demo password, naming it', { timeout: 90_000 }, async (t) => {
  const refusals: Array<[Record<string, string>, RegExp]> = [
    [{}, /SVC_SECRET is not set/],
    [{ SVC_SECRET: PUBLISHED_SECRETS[0]! }, /SVC_SECRET: secret #1 is published/],
    [{ SVC_SECRET: 'a-secret-of-this-shop-only-0123456789abcdef', SVC_ADMIN_EMAIL: 'boss@shop.example', SVC_ADMIN_PASSWORD: DEFAULT_DEMO_USERS.admin.password }, /SVC_ADMIN_PASSWORD is a published demo password/]
  ]
  await Promise.all(refusals.map(async ([env, message]) => {
    const started = await runServer(t, { NODE_ENV: 'production', ...env })
    t.equal(await started.exited, 1, `${JSON.stringify(env)}: exits 1`)
    t.match(started.output(), message)
  }))
})

test('NODE_ENV=production with a secret: no demo catalog, only the configured shop manager', { timeout: 90_000 }, async (t) => {
  const admin = { email: 'boss@shop.example', password: 'a long password of her own' }
  const lines = await banner(await runServer(t, { NODE_ENV: 'production', SVC_SECRET: 'a-secret-of-this-shop-only-0123456789abcdef', SVC_ADMIN_EMAIL: admin.email, SVC_ADMIN_PASSWORD: admin.password }))
  const origin = new URL(lines.get('storefront')!).origin
  t.equal(lines.get('shop manager'), `${admin.email} / (from SVC_ADMIN_PASSWORD)`, 'the password is not printed')
  t.notOk(lines.has('shopper'), 'no demo shopper')
  t.same(await (await fetch(`${origin}/wp-json/wc/store/v1/products`)).json(), [], 'no demo catalog')
  const demoLogin = await fetch(`${origin}/account/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify(DEFAULT_DEMO_USERS.admin) })
  t.equal(demoLogin.status, 401, 'the demo shop manager does not exist')
  const login = await fetch(`${origin}/account/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify(admin) })
  t.equal(login.status, 200, 'the configured shop manager logs in')
  t.match(await login.json(), { user: { email: admin.email, capabilities: ['manage_shop'] } })
})
