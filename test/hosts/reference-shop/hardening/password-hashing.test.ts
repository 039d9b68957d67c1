import type { FastifyInstance } from 'fastify'
import { test } from 'tap'
import { hashPassword, verifyPassword } from '../../../../hosts/reference-shop/auth/password.ts'
import { build, createStorage, TEST_PASSWORD_HASHING } from '../../../helper.ts'

/**
 * Password hashes use OWASP's current scrypt parameters (Password Storage Cheat Sheet: N=2^17,
 * r=8, p=1), and a hash made with older ones is made again at the user's next login, while the password is at hand.
 * The expected parameters are written out here from the cheat sheet, not imported.
 */

const OWASP = { N: 131072, r: 8, p: 1 }
/** What the platform stored before the OWASP parameters. */
const BEFORE = { N: 32768, r: 8, p: 1 }
const shopper = { email: 'rehash@shop.test', password: 'correct horse battery' }

const paramsOf = (hash: string) => {
  const [scheme, N, r, p] = hash.split('$')
  return { scheme, N: Number(N), r: Number(r), p: Number(p) }
}

function login (app: FastifyInstance, password: string) {
  return app.inject({ method: 'POST', url: '/account/login', payload: { email: shopper.email, password } })
}

test('by default a hash made with the old parameters becomes an OWASP one at the next login', async (t) => {
  const storage = await createStorage(t, { backend: 'memory' })
  const user = await storage.ensureUser({ email: shopper.email, displayName: 'Re Hash', passwordHash: await hashPassword(shopper.password, BEFORE), capabilities: ['read'] })
  // The platform's own default, as production runs it (the other tests pass cheaper parameters).
  const app = await build(t, { storage, seed: false, passwordHashing: undefined })

  const wrong = await login(app, 'not the password')
  t.equal(wrong.statusCode, 401)
  t.same(paramsOf((await storage.getUser(user.id))!.passwordHash), { scheme: 'scrypt', ...BEFORE }, 'a wrong password changes nothing')

  t.equal((await login(app, shopper.password)).statusCode, 200)
  const rehashed = (await storage.getUser(user.id))!.passwordHash
  t.same(paramsOf(rehashed), { scheme: 'scrypt', ...OWASP }, 'stored again with N=2^17, r=8, p=1')
  t.equal(await verifyPassword(shopper.password, rehashed), true, 'the new hash verifies the password (memory enough for N=2^17)')
  t.same(paramsOf(await hashPassword('another password')), { scheme: 'scrypt', ...OWASP }, 'new hashes are made with them too')
})

test('the parameters are an option: a hash made otherwise is made again once, and the login goes on working', async (t) => {
  const storage = await createStorage(t, { backend: 'memory' })
  const older = { N: 2 ** 9, r: 8, p: 1 }
  const user = await storage.ensureUser({ email: shopper.email, displayName: 'Re Hash', passwordHash: await hashPassword(shopper.password, older), capabilities: ['read'] })
  const app = await build(t, { storage, seed: false, passwordHashing: TEST_PASSWORD_HASHING })

  t.equal((await login(app, shopper.password)).statusCode, 200)
  const first = (await storage.getUser(user.id))!.passwordHash
  t.same(paramsOf(first), { scheme: 'scrypt', ...TEST_PASSWORD_HASHING }, 'made again with the configured parameters')
  t.equal((await login(app, shopper.password)).statusCode, 200, 'the new hash logs in')
  t.equal((await storage.getUser(user.id))!.passwordHash, first, 'a hash made with the current parameters is kept as it is')
})

test('a stored hash that asks for absurd parameters, or is no hash at all, is refused without a 500', async (t) => {
  const storage = await createStorage(t, { backend: 'memory' })
  const hash = await hashPassword(shopper.password, TEST_PASSWORD_HASHING)
  const [, , , , salt, key] = hash.split('$')
  const app = await build(t, { storage, seed: false })
  const stored: Array<[string, string]> = [
    ['1 GiB and more of memory', `scrypt$1073741824$8$1$${salt}$${key}`],
    ['N not a power of two', `scrypt$1000$8$1$${salt}$${key}`],
    ['no parameters', `scrypt$$$$${salt}$${key}`],
    ['another scheme', `md5$${key}`],
    ['empty', '']
  ]
  for (const [what, passwordHash] of stored) {
    const email = `${what.replace(/\W+/g, '-')}@shop.test`
    await storage.ensureUser({ email, displayName: what, passwordHash, capabilities: [] })
    const response = await app.inject({ method: 'POST', url: '/account/login', payload: { email, password: shopper.password } })
    t.equal(response.statusCode, 401, `${what}: 401`)
    t.equal(response.json().code, 'svc_invalid_credentials', `${what}: in the error shape`)
  }
})

test('parameters scrypt cannot run with refuse the app at start', async (t) => {
  for (const passwordHashing of [{ N: 1000, r: 8, p: 1 }, { N: 2 ** 17, r: 0, p: 1 }, { N: 2 ** 30, r: 8, p: 1 }]) {
    await t.rejects(build(t, { backend: 'memory', passwordHashing }), RangeError, JSON.stringify(passwordHashing))
  }
})
