import { Readable } from 'node:stream'
import { test } from 'tap'
import { SVC_ROUTES } from '../../../helpers/routes.ts'
import {
  buildSecurityApp, credentialsFor, expectError, expectThrough, jsonOfSize, label, login, newCartToken, svcInject, USERS
} from '../../../helpers/security.ts'

const WRITE_ROWS = SVC_ROUTES.filter((spec) => spec.method !== 'GET')

test('body limits of design §3.6, malformed JSON and content types, on every write row', async (t) => {
  const { app } = await buildSecurityApp(t, { edition: 'pro' })
  const admin = await login(app, USERS.admin)
  const cartToken = await newCartToken(app)
  t.ok(WRITE_ROWS.length > 0 && WRITE_ROWS.every((spec) => spec.bodyLimit !== null), 'every write row has a body limit')

  for (const spec of WRITE_ROWS) {
    t.test(`${label(spec)}: ${spec.bodyLimit} bytes`, async (t) => {
      const limit = spec.bodyLimit!
      const credentials = credentialsFor(spec, { cartToken, admin })
      const json = { ...credentials, 'content-type': 'application/json' }
      const send = (payload: string, headers = json) => svcInject(app, spec, { headers, payload })
      // Errors raised after the rate limiter still carry its headers.
      const limiterHeaders = (response: Awaited<ReturnType<typeof send>>, what: string) => {
        if (spec.rateLimit === null) return
        t.equal(response.headers['x-ratelimit-limit'], String(spec.rateLimit.max), `${what}: X-RateLimit-Limit`)
        t.match(response.headers['x-ratelimit-remaining'], /^\d+$/, `${what}: X-RateLimit-Remaining`)
      }

      for (const size of [limit - 1, limit]) {
        const body = jsonOfSize(size)
        t.equal(Buffer.byteLength(body), size)
        const response = await send(body)
        expectThrough(t, response, spec, `${size} bytes (${size === limit ? 'exactly the limit' : 'one byte under'})`)
        t.not(response.statusCode, 413, `${size} bytes is not too large`)
      }
      const over = await send(jsonOfSize(limit + 1))
      expectError(t, over, 413, 'svc_body_too_large', `${limit + 1} bytes (one byte over)`)
      limiterHeaders(over, '413')
      expectError(t, await send(jsonOfSize(4 * limit)), 413, 'svc_body_too_large', 'four times the limit')
      // Chunked, without Content-Length: the limit holds while the body streams in.
      const chunked = (size: number) => svcInject(app, spec, {
        headers: { ...json, 'transfer-encoding': 'chunked' },
        payload: Readable.from([Buffer.from(jsonOfSize(size))], { objectMode: false }) as unknown as string
      })
      expectThrough(t, await chunked(limit), spec, 'a chunked body of exactly the limit')
      expectError(t, await chunked(limit + 1), 413, 'svc_body_too_large', 'a chunked body one byte over')

      const multibyte = `{"pad":"${'é'.repeat(Math.ceil(limit / 2))}"}`
      t.ok(multibyte.length < limit && Buffer.byteLength(multibyte) > limit, 'fewer characters than the limit but more bytes')
      expectError(t, await send(multibyte), 413, 'svc_body_too_large', 'the limit counts bytes, not characters')

      const malformed = await send('{"code": ')
      expectError(t, malformed, 400, 'svc_invalid_json', 'malformed JSON')
      limiterHeaders(malformed, 'malformed JSON')
      expectError(t, await send('{"a":1}}'), 400, 'svc_invalid_json', 'trailing garbage')

      const plain = await send('code=SAVE10', { ...credentials, 'content-type': 'text/plain' })
      expectError(t, plain, 415, 'svc_unsupported_media_type', 'text/plain')
      limiterHeaders(plain, '415')
      expectError(t, await send('<code/>', { ...credentials, 'content-type': 'application/xml' }), 415, 'svc_unsupported_media_type', 'application/xml')
      expectThrough(t, await send('{}', { ...credentials, 'content-type': 'application/json; charset=utf-8' }), spec, 'JSON with a charset')

      // Without valid credentials the request is refused before its body is read.
      const anonymous = await svcInject(app, spec, { headers: { 'content-type': 'application/json' }, payload: jsonOfSize(limit + 1) })
      t.equal(anonymous.statusCode, spec.access === 'admin' ? 401 : 403, 'the access check comes before the body')
    })
  }
})
