import { test } from 'tap'
import { serviceUrl, skipWithout } from '../helpers/services.ts'

/** `npm test` on a fresh clone: tests needing PostgreSQL or Redis skip with a reason; under CI=true they never skip. */
test('tests needing a server skip without its URL, and fail instead under CI=true', async (t) => {
  const saved = { CI: process.env.CI, REDIS_URL: process.env.REDIS_URL }
  t.teardown(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  })

  delete process.env.CI
  delete process.env.REDIS_URL
  t.match(skipWithout('REDIS_URL'), /^REDIS_URL is not set: Redis tests skipped/, 'no URL, no CI: a one-line reason to skip')
  t.throws(() => serviceUrl('REDIS_URL'), /REDIS_URL is not set: this test needs Redis and should be skipped/, 'a test that asks anyway is told to skip')

  process.env.CI = 'true'
  t.equal(skipWithout('REDIS_URL'), false, 'under CI=true the test runs')
  t.throws(() => serviceUrl('REDIS_URL'), /REDIS_URL is not set and CI=true/, '…and fails on the missing URL')

  process.env.REDIS_URL = 'redis://127.0.0.1:6379'
  delete process.env.CI
  t.equal(skipWithout('REDIS_URL'), false, 'with a URL the test runs')
  t.equal(serviceUrl('REDIS_URL'), 'redis://127.0.0.1:6379')
})
