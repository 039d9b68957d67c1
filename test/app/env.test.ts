import { test } from 'tap'
import { EnvError, readEnv } from '../../config/env.ts'

test('defaults need no environment at all', async (t) => {
  const env = readEnv({})
  t.equal(env.port, 3000)
  t.equal(env.host, '127.0.0.1')
  t.equal(env.siteUrl, 'http://localhost:3000')
  t.equal(env.homeUrl, 'http://localhost:3000')
  t.equal(env.edition, 'free')
  t.same(env.secrets, [])
  t.equal(env.databaseUrl, null)
  t.equal(env.redisUrl, null)
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
  const env = readEnv({ SVC_ALLOWED_ORIGINS: 'https://app.example, http://localhost:8080', SVC_TRUSTED_PROXY_CIDRS: '10.0.0.0/8, fd00::/8, 127.0.0.1' })
  t.same(env.allowedOrigins, ['https://app.example', 'http://localhost:8080'])
  t.same(env.trustedProxyCidrs, ['10.0.0.0/8', 'fd00::/8', '127.0.0.1'])
  t.same(readEnv({}).allowedOrigins, [])
  t.throws(() => readEnv({ SVC_ALLOWED_ORIGINS: 'https://app.example/path' }), EnvError)
  t.throws(() => readEnv({ SVC_ALLOWED_ORIGINS: 'app.example' }), EnvError)
  t.throws(() => readEnv({ SVC_TRUSTED_PROXY_CIDRS: '10.0.0.0/33' }), EnvError)
  t.throws(() => readEnv({ SVC_TRUSTED_PROXY_CIDRS: 'proxy.example' }), EnvError)
})
