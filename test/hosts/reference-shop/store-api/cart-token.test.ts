import { test } from 'tap'
import { createCartTokenSigner } from '../../../../hosts/reference-shop/session/cart-token.ts'
import { buildTestApp, StoreApiClient, STORE_API } from '../../../helpers/app.ts'
import { createTestPgliteStorage } from '../../../helpers/pglite.ts'

const SECRET_A = 'a'.repeat(32)
const SECRET_B = 'b'.repeat(32)

test('a signed token verifies to its cart key until it expires', async (t) => {
  let clock = Date.UTC(2026, 0, 1)
  const signer = createCartTokenSigner({ secrets: [SECRET_A], now: () => clock })
  const token = signer.sign('t_0123456789abcdef0123456789abcd')
  t.equal(signer.verify(token), 't_0123456789abcdef0123456789abcd')
  clock += 48 * 3600 * 1000 - 1000
  t.equal(signer.verify(token), 't_0123456789abcdef0123456789abcd', 'valid just before 48 hours')
  clock += 1000
  t.equal(signer.verify(token), null, 'expired at 48 hours')
})

test('verified tokens are remembered without weakening any check', async (t) => {
  let clock = Date.UTC(2026, 0, 1)
  const signer = createCartTokenSigner({ secrets: [SECRET_A], now: () => clock, verifiedCacheSize: 2 })
  const keys = ['t_00000000000000000000000000000a', 't_00000000000000000000000000000b', 't_00000000000000000000000000000c']
  const tokens = keys.map((key) => signer.sign(key))
  for (let round = 0; round < 3; round++) {
    t.strictSame(tokens.map((token) => signer.verify(token)), keys, `round ${round}: three tokens through a memory of two`)
  }
  const [header, payload, signature] = tokens[0]!.split('.') as [string, string, string]
  const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`
  t.equal(signer.verify(`${header}.${payload}.${flipped}`), null, 'a remembered token with another signature is refused')
  t.equal(signer.verify(`${tokens[0]}x`), null, 'and with a byte more')
  clock += 48 * 3600 * 1000
  t.strictSame(tokens.map((token) => signer.verify(token)), [null, null, null], 'remembered tokens still expire')
})

test('rotation: the first secret signs, every listed secret verifies', async (t) => {
  const old = createCartTokenSigner({ secrets: [SECRET_B] })
  const rotated = createCartTokenSigner({ secrets: [SECRET_A, SECRET_B] })
  const other = createCartTokenSigner({ secrets: [SECRET_A] })
  const oldToken = old.sign('t_0123456789abcdef0123456789abcd')
  t.equal(rotated.verify(oldToken), 't_0123456789abcdef0123456789abcd', 'an old token survives the rotation')
  t.equal(other.verify(oldToken), null, 'a token of a retired secret is refused')
  t.equal(old.verify(rotated.sign('t_0123456789abcdef0123456789abcd')), null, 'new tokens use the new secret')
})

test('malformed tokens are refused', async (t) => {
  const signer = createCartTokenSigner({ secrets: [SECRET_A] })
  const token = signer.sign('t_0123456789abcdef0123456789abcd')
  const [header, payload, signature] = token.split('.') as [string, string, string]
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  for (const bad of ['', 'a.b', `${header}.${payload}`, `${header}.${payload}.${signature}.x`, `${token}x`, 'x'.repeat(2000),
    `${encode({ alg: 'HS512', typ: 'JWT' })}.${payload}.${signature}`,
    `${header}.${encode({ user_id: 't_0123456789abcdef0123456789abcd', exp: 9e9, iss: 'other', iat: 0 })}.${signature}`]) {
    t.equal(signer.verify(bad), null, `refused: ${bad.slice(0, 40)}`)
  }
})

test('over HTTP an expired token starts a new cart', async (t) => {
  let clock = Date.UTC(2026, 0, 1)
  const storage = await createTestPgliteStorage()
  t.teardown(() => storage.close())
  const app = await buildTestApp(t, storage, { now: () => new Date(clock) })
  const shopper = new StoreApiClient(app)
  await shopper.add(101, 1)
  const token = shopper.token!
  clock += 47 * 3600 * 1000
  const fresh = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })
  t.equal(fresh.json().items_count, 1)
  clock += 2 * 3600 * 1000
  const expired = await app.inject({ method: 'GET', url: `${STORE_API}/cart`, headers: { 'cart-token': token } })
  t.equal(expired.statusCode, 200)
  t.equal(expired.json().items_count, 0, 'the token expired after 48 hours: a new cart')
})
