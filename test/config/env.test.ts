import { test } from 'tap'
import { problemsOf } from '../helpers/env-problems.ts'
import { DEFAULT_DEMO_USERS, EnvError, PUBLISHED_SECRETS, readEnv } from '../../config/env.ts'

test('defaults need no environment at all', async (t) => {
  const env = readEnv({})
  t.equal(env.port, 3000)
  t.equal(env.host, 'localhost', 'listens on the loopback name the site URL uses')
  t.equal(env.siteUrl, 'http://localhost:3000')
  t.equal(env.homeUrl, 'http://localhost:3000')
  t.equal(env.edition, 'free')
  t.same(env.secrets, [])
  t.equal(env.databaseUrl, null)
  t.equal(env.redisUrl, null)
  t.equal(env.production, false)
  t.equal(env.demo, true, 'demo mode by default')
  t.same(env.users, DEFAULT_DEMO_USERS, 'the demo shop manager and shopper')
  t.same(env.allowedOrigins.sort(), ['http://127.0.0.1:3000', 'http://[::1]:3000'].sort(), 'the other loopback names are allowed origins in the demo')
})

test('every problem is reported at once, by name', async (t) => {
  try {
    readEnv({ PORT: 'eighty', SVC_EDITION: 'gold', SVC_SECRET: 'short', DATABASE_URL: 'mysql://x', REDIS_URL: 'nope', SVC_SITE_URL: 'ftp://x' })
    t.fail('should throw')
  } catch (error) {
    t.ok(error instanceof EnvError)
    const problems = (error as EnvError).problems.join('\n')
    for (const name of ['PORT', 'SVC_EDITION', 'SVC_SECRET', 'DATABASE_URL', 'REDIS_URL', 'SVC_SITE_URL']) t.match(problems, name)
  }
})

test('secrets are a comma-separated list for rotation', async (t) => {
  const env = readEnv({ SVC_SECRET: `${'a'.repeat(32)}, ${'b'.repeat(40)}`, SVC_EDITION: 'pro', PORT: '8080', DATABASE_URL: 'postgres://u@h/db', REDIS_URL: 'redis://h:6379' })
  t.same(env.secrets, ['a'.repeat(32), 'b'.repeat(40)])
  t.equal(env.edition, 'pro')
  t.equal(env.siteUrl, 'http://localhost:8080')
  t.equal(env.databaseUrl, 'postgres://u@h/db')
})

test('allowed origins and trusted proxy ranges are comma-separated and checked at start', async (t) => {
  const env = readEnv({ SVC_SITE_URL: 'https://shop.example', SVC_ALLOWED_ORIGINS: 'https://app.example, http://localhost:8080', SVC_TRUSTED_PROXY_CIDRS: '10.0.0.0/8, fd00::/8, 127.0.0.1' })
  t.same(env.allowedOrigins, ['https://app.example', 'http://localhost:8080'])
  t.same(env.trustedProxyCidrs, ['10.0.0.0/8', 'fd00::/8', '127.0.0.1'])
  t.same(readEnv({ SVC_DEMO: 'false' }).allowedOrigins, [])
  t.same(readEnv({ SVC_SITE_URL: 'https://shop.example' }).allowedOrigins, [], 'no loopback aliases for a real site')
  t.throws(() => readEnv({ SVC_ALLOWED_ORIGINS: 'https://app.example/path' }), EnvError)
  t.throws(() => readEnv({ SVC_ALLOWED_ORIGINS: 'app.example' }), EnvError)
  t.throws(() => readEnv({ SVC_TRUSTED_PROXY_CIDRS: '10.0.0.0/33' }), EnvError)
  t.throws(() => readEnv({ SVC_TRUSTED_PROXY_CIDRS: 'proxy.example' }), EnvError)
})

test('SVC_INSTANCES: the instances serving the shop, 1 unless set, a whole number from 1', async (t) => {
  t.equal(readEnv({}).instances, 1)
  t.equal(readEnv({ SVC_INSTANCES: '4' }).instances, 4)
  t.equal(readEnv({ SVC_INSTANCES: ' 12 ' }).instances, 12)
  for (const bad of ['0', '-2', '1.5', 'two', '1e3']) {
    t.ok(problemsOf({ SVC_INSTANCES: bad }).includes(`SVC_INSTANCES must be a whole number of instances, at least 1, got "${bad}"`), `"${bad}" is refused`)
  }
})

const OWN_SECRET = 'a-secret-of-this-shop-only-0123456789abcdef'

test('production (NODE_ENV=production): no demo data, a secret of its own, no published password', async (t) => {
  const env = readEnv({ NODE_ENV: 'production', SVC_SECRET: OWN_SECRET })
  t.equal(env.production, true)
  t.equal(env.demo, false, 'no demo catalog')
  t.same(env.users, {}, 'no demo users')

  t.match(problemsOf({ NODE_ENV: 'production' }), /SVC_SECRET is not set/, 'a missing secret is refused')
  for (const secret of PUBLISHED_SECRETS) {
    t.match(problemsOf({ NODE_ENV: 'production', SVC_SECRET: `${OWN_SECRET},${secret}` }), /SVC_SECRET: secret #2 is published/, `published secret ${secret} is refused`)
  }
  t.equal(problemsOf({ SVC_SECRET: PUBLISHED_SECRETS[0]! }), '', 'outside production a published secret still starts a demo')

  t.match(problemsOf({ NODE_ENV: 'production', SVC_SECRET: OWN_SECRET, SVC_ADMIN_EMAIL: 'boss@shop.example', SVC_ADMIN_PASSWORD: 'admin-demo-password' }),
    /SVC_ADMIN_PASSWORD is a published demo password/)
  t.match(problemsOf({ NODE_ENV: 'production', SVC_SECRET: OWN_SECRET, SVC_DEMO: 'true' }),
    /SVC_ADMIN_PASSWORD is not set, so the demo admin would get the published demo password[\s\S]*SVC_SHOPPER_PASSWORD is not set/,
    'demo mode in production needs passwords of its own')
  t.match(problemsOf({ NODE_ENV: 'production', SVC_SECRET: OWN_SECRET, SVC_ADMIN_EMAIL: 'boss@shop.example' }), /SVC_ADMIN_EMAIL and SVC_ADMIN_PASSWORD go together/)
})

test('SVC_ADMIN_EMAIL and SVC_ADMIN_PASSWORD create the shop manager in every mode', async (t) => {
  const admin = { email: 'boss@shop.example', password: 'a long password of her own' }
  for (const mode of [{}, { SVC_DEMO: 'false' }, { NODE_ENV: 'production', SVC_SECRET: OWN_SECRET }]) {
    const env = readEnv({ ...mode, SVC_ADMIN_EMAIL: admin.email, SVC_ADMIN_PASSWORD: admin.password })
    t.same(env.users.admin, admin, JSON.stringify(mode))
    t.equal(env.users.shopper !== undefined, env.demo, 'the demo shopper only in demo mode')
  }
  t.match(problemsOf({ SVC_DEMO: 'maybe' }), /SVC_DEMO must be true or false/)
})

test('log format: pretty on a terminal, JSON otherwise, LOG_FORMAT decides', async (t) => {
  t.equal(readEnv({}, true).logFormat, 'pretty')
  t.equal(readEnv({}, false).logFormat, 'json')
  t.equal(readEnv({ LOG_FORMAT: 'json' }, true).logFormat, 'json')
  t.match(problemsOf({ LOG_FORMAT: 'xml' }), /LOG_FORMAT must be "pretty" or "json"/)
})
