import { test } from 'tap'
import { drawerSessions, DrawerFilters, resolveCommercePort, type CommercePort, type Login } from '../../../drawer/port/index.ts'

const SECRET = 'a-first-secret-of-at-least-32-bytes!!'
const OLDER = 'an-older-secret-of-at-least-32-bytes!!'
const login = (id: number, sessionId?: string): Login => ({ user: { id, displayName: `user ${id}`, capabilities: [] }, ...(sessionId === undefined ? {} : { sessionId }) })

test('the drawer\'s Cart-Tokens name their cart, survive a secret rotation and refuse any change', async (t) => {
  const sessions = drawerSessions([SECRET])
  const key = sessions.newCartKey()
  t.match(key, /^[0-9a-f]{32}$/, 'a new cart key is 32 hex characters')
  t.not(sessions.newCartKey(), key, 'every new key is another')
  const token = sessions.issueToken(key)
  t.equal(sessions.cartKeyOfToken(token), key, 'a token names the key it was issued for')
  t.equal(drawerSessions([OLDER, SECRET]).cartKeyOfToken(token), key, 'a token of a secret being rotated out is still accepted')
  t.equal(drawerSessions([OLDER]).cartKeyOfToken(token), null, 'a token signed with another secret is refused')
  const other = sessions.issueToken('another-cart')
  const forged = `${key}.${other.split('.')[1]}`
  for (const [what, value] of [['the key alone', key], ['another key\'s signature', forged], ['a truncated token', token.slice(0, -2)], ['an empty token', ''], ['a suffix', `${token}x`]] as const) {
    t.equal(sessions.cartKeyOfToken(value), null, `refused: ${what}`)
  }
  t.throws(() => sessions.issueToken('not a key!'), /1 to 128 characters/, 'a key with other characters is not signed')
})

test('the drawer\'s REST nonces are bound to the user and the login session', async (t) => {
  const sessions = drawerSessions([SECRET])
  const nonce = sessions.restNonce(login(7, 'session-a'))
  t.match(nonce, /^[0-9a-f]{20}$/, 'a nonce is 20 hex characters')
  t.ok(sessions.verifyNonce(nonce, login(7, 'session-a')), 'the login\'s own nonce verifies')
  t.notOk(sessions.verifyNonce(nonce, login(7, 'session-b')), 'another login session of the same user refuses it')
  t.notOk(sessions.verifyNonce(nonce, login(8, 'session-a')), 'another user refuses it')
  t.notOk(sessions.verifyNonce('', login(7, 'session-a')), 'an empty nonce is refused')
  t.notOk(sessions.verifyNonce(nonce.toUpperCase(), login(7, 'session-a')), 'a nonce in another form is refused')
  t.ok(drawerSessions([OLDER, SECRET]).verifyNonce(nonce, login(7, 'session-a')), 'a nonce of a secret being rotated out still verifies')
})

test('the drawer\'s own filters run by priority, keep the value a failing callback was given, and report it', async (t) => {
  const filters = new DrawerFilters()
  const errors: string[] = []
  filters.setErrorReporter((name) => errors.push(name))
  t.notOk(filters.has('svc_rest_allowed_origins'), 'no callback yet')
  filters.add('svc_rest_allowed_origins', (value) => [...value, 'late'], 20)
  const remove = filters.add('svc_rest_allowed_origins', (value) => [...value, 'early'], 5)
  filters.add('svc_rest_allowed_origins', () => { throw new Error('broken') }, 10)
  t.same(await filters.apply('svc_rest_allowed_origins', ['given']), ['given', 'early', 'late'], 'lower priority first; a throwing callback changes nothing')
  t.same(errors, ['svc_rest_allowed_origins'], 'the failure is reported with the filter\'s name')
  remove()
  t.same(await filters.apply('svc_rest_allowed_origins', []), ['late'], 'a removed callback no longer runs')
})

/** A port with only the required members; each operation fails if the test reaches it. */
function requiredOnly (): CommercePort {
  const unused = (): never => { throw new Error('not used by this test') }
  return {
    homeUrl: 'http://shop.test',
    urls: { checkout: 'http://shop.test/checkout/', restNonce: '/nonce', login: '/login', logout: '/logout' },
    config: { currency: { code: 'EUR', symbol: '€', minorUnit: 2, decimalSeparator: '.', thousandSeparator: ',', prefix: '€', suffix: '' }, taxRatePercent: 0 } as unknown as CommercePort['config'],
    login: async () => null,
    carts: { read: unused, ownerOf: unused, priceRead: unused, change: unused, addHook: () => () => {} },
    getProducts: unused,
    listProducts: unused,
    extendCart: () => {}
  }
}

test('a port with only the required members: the drawer signs tokens and nonces with its secrets and keeps its own filters', async (t) => {
  t.throws(() => resolveCommercePort(requiredOnly()), /give it secrets/, 'without secrets the drawer cannot stand in for the sessions')
  const port = resolveCommercePort(requiredOnly(), { secrets: [SECRET] })
  const token = port.issueToken!('cart-1')
  t.equal(port.cartKeyOfToken(token), 'cart-1', 'the drawer\'s token names its cart')
  t.equal(drawerSessions([SECRET]).cartKeyOfToken(token), 'cart-1', 'signed as drawerSessions signs it')
  t.ok(port.verifyNonce(port.restNonce(login(3, 's')), login(3, 's')), 'the drawer\'s nonce verifies for its login')
  const removed = port.filters.add('svc_rest_allowed_origins', (value) => [...value, 'https://other.test'])
  t.same(await port.filters.apply('svc_rest_allowed_origins', []), ['https://other.test'], 'the drawer\'s own filters stand in for the host\'s')
  removed()
  t.throws(() => resolveCommercePort({ ...requiredOnly(), verifyNonce: () => true }, { secrets: [SECRET] }), /together, or neither/, 'half of the nonce members is refused')
  const own = resolveCommercePort({ ...requiredOnly(), cartKeyOfToken: (value) => value === 'host-token' ? 'host-cart' : null, verifyNonce: () => false, restNonce: () => 'n' })
  t.equal(own.cartKeyOfToken('host-token'), 'host-cart', 'a host\'s own tokens are used when it gives them')
  t.equal(own.issueToken, null, 'and the drawer issues none')
})
