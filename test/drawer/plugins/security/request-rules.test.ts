import { test } from 'tap'
import { SVC_ROUTES } from '../../../helpers/routes.ts'
import {
  buildSecurityApp, CORS_ALLOWED_REQUEST_HEADERS, credentialsFor, expectCors, expectedAllow, expectError, expectNoCors,
  expectNoStore, expectPublicCache, expectThrough, EXTRA_ORIGIN, FILTER_ORIGIN, HOME_URL, label, listOf, login,
  methodsByPath, newCartToken, SITE_ORIGIN, svcInject, TEST_ROUTES, USERS
} from '../../../helpers/security.ts'

/** Origins that are not allowed: each differs from an allowed one in one part, or is no origin at all. */
const REFUSED_ORIGINS: Array<[string, string]> = [
  ['other scheme', 'https://shop.test'],
  ['other port', 'http://shop.test:8080'],
  ['other host', 'http://evil.example'],
  ['allowed host as a prefix', 'http://shop.test.evil.example'],
  ['subdomain of an allowed host', 'http://api.shop.test'],
  ['extra origin on another scheme', 'http://partner.example'],
  ['Origin: null', 'null'],
  ['garbage', 'not an origin'],
  ['empty', '']
]

const PROBE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

test('specification §4.4 for every row of the route table (Pro)', async (t) => {
  const { app, publicData } = await buildSecurityApp(t, { edition: 'pro' })
  const admin = await login(app, USERS.admin)
  const cartToken = await newCartToken(app)

  t.test('origin check (specification §4.4.1, design §3.4)', async (t) => {
    for (const spec of SVC_ROUTES) {
      t.test(label(spec), async (t) => {
        const send = (headers: Record<string, string>) => svcInject(app, spec, { headers: { ...credentialsFor(spec, { cartToken, admin }), ...headers } })

        for (const origin of [SITE_ORIGIN, HOME_URL]) {
          const response = await send({ origin })
          expectThrough(t, response, spec, `Origin ${origin} (the site's own)`)
          expectNoCors(t, response, `Origin ${origin}`)
        }
        const viaOption = await send({ origin: EXTRA_ORIGIN })
        expectThrough(t, viaOption, spec, 'extra origin from the allowedOrigins option')
        expectCors(t, viaOption, EXTRA_ORIGIN, 'extra origin from the allowedOrigins option')

        expectError(t, await send({ origin: FILTER_ORIGIN }), 403, 'svc_forbidden_origin', 'before the filter adds it')
        const remove = app.shop.filters.add('svc_rest_allowed_origins', (origins) => [...origins, `${FILTER_ORIGIN}/`])
        try {
          const viaFilter = await send({ origin: FILTER_ORIGIN })
          expectThrough(t, viaFilter, spec, 'extra origin added through svc_rest_allowed_origins at run time')
          expectCors(t, viaFilter, FILTER_ORIGIN, 'extra origin from the filter')
          const stillOption = await send({ origin: EXTRA_ORIGIN })
          expectThrough(t, stillOption, spec, 'the option origin, the filter having added to it')
        } finally {
          remove()
        }
        expectError(t, await send({ origin: FILTER_ORIGIN }), 403, 'svc_forbidden_origin', 'after the filter is removed')

        expectThrough(t, await send({}), spec, 'neither Origin nor Referer (server to server)')

        for (const referer of [`${SITE_ORIGIN}/shop/?add-to-cart=101`, `${HOME_URL}/`]) {
          const response = await send({ referer })
          expectThrough(t, response, spec, `Referer ${referer} only`)
          expectNoCors(t, response, `Referer ${referer}`)
        }
        expectThrough(t, await send({ referer: `${EXTRA_ORIGIN}/landing?utm=x` }), spec, 'Referer of the extra origin only')
        for (const referer of ['http://evil.example/page', 'https://shop.test/cart', 'http://shop.test:8080/', 'not a url', 'about:blank']) {
          expectError(t, await send({ referer }), 403, 'svc_forbidden_origin', `Referer ${referer} only`)
        }

        for (const [why, origin] of REFUSED_ORIGINS) {
          const response = await send({ origin })
          expectError(t, response, 403, 'svc_forbidden_origin', `refused: ${why} (${JSON.stringify(origin)})`)
          expectNoCors(t, response, `refused: ${why}`)
        }
        expectThrough(t, await send({ origin: SITE_ORIGIN, referer: 'http://evil.example/' }), spec, 'Origin wins over Referer (allowed Origin)')
        expectError(t, await send({ origin: 'http://evil.example', referer: `${SITE_ORIGIN}/` }), 403, 'svc_forbidden_origin', 'Origin wins over Referer (refused Origin)')
      })
    }
  })

  t.test('preflight OPTIONS: 204 with Allow and CORS for an allowed extra origin, 403 for a refused one', async (t) => {
    for (const [path, methods] of methodsByPath(SVC_ROUTES)) {
      t.test(path, async (t) => {
        const allow = expectedAllow(methods)
        const preflight = (origin: string) => svcInject(app, { method: 'OPTIONS', path }, {
          headers: { origin, 'access-control-request-method': methods[0]!, 'access-control-request-headers': 'cart-token, x-wp-nonce, content-type' }
        })

        const allowed = await preflight(EXTRA_ORIGIN)
        t.equal(allowed.statusCode, 204, 'allowed extra origin: 204')
        t.equal(allowed.body, '', 'no body')
        t.same(listOf(allowed.headers.allow), allow, `Allow: ${allow.join(', ')}`)
        t.same(listOf(allowed.headers['access-control-allow-methods']), allow, 'Access-Control-Allow-Methods')
        t.same(listOf(allowed.headers['access-control-allow-headers']), [...CORS_ALLOWED_REQUEST_HEADERS].sort(), 'Access-Control-Allow-Headers')
        t.match(allowed.headers['access-control-max-age'], /^\d+$/, 'Access-Control-Max-Age')
        expectCors(t, allowed, EXTRA_ORIGIN, 'preflight')
        expectNoStore(t, allowed)

        const own = await preflight(SITE_ORIGIN)
        t.equal(own.statusCode, 204, 'the site\'s own origin: 204')
        expectNoCors(t, own, 'the site\'s own origin')

        for (const origin of ['http://evil.example', 'null']) {
          const refused = await preflight(origin)
          expectError(t, refused, 403, 'svc_forbidden_origin', `preflight from ${origin}`)
          expectNoCors(t, refused, `preflight from ${origin}`)
        }
      })
    }
  })

  t.test('JSONP and method override are refused (specification §4.4.2–3, design §3.4)', async (t) => {
    for (const spec of SVC_ROUTES) {
      t.test(label(spec), async (t) => {
        const headers = credentialsFor(spec, { cartToken, admin })
        expectThrough(t, await svcInject(app, spec, { headers, query: '?unrelated=1' }), spec, 'an ordinary query')
        for (const query of ['?_jsonp=cb', '?_jsonp', '?a=1&_jsonp=window.evil', '?%5Fjsonp=cb']) {
          expectError(t, await svcInject(app, spec, { headers, query }), 400, 'svc_jsonp_disabled', `JSONP ${query}`)
        }
        for (const query of ['?_method=PUT', `?_method=${spec.method}`, '?a=1&_method=DELETE']) {
          expectError(t, await svcInject(app, spec, { headers, query }), 400, 'svc_method_override_disabled', `override by query ${query}`)
        }
        for (const header of ['x-http-method-override', 'x-method-override']) {
          for (const query of ['', '?a=1']) {
            expectError(t, await svcInject(app, spec, { headers: { ...headers, [header]: 'PUT' }, query }), 400,
              'svc_method_override_disabled', `override by ${header}${query === '' ? '' : ' with a query string'}`)
          }
        }
      })
    }
  })

  t.test('every unsupported method answers 405 with Allow (specification §4.4.4)', async (t) => {
    for (const [path, methods] of methodsByPath(SVC_ROUTES)) {
      t.test(path, async (t) => {
        const allow = expectedAllow(methods)
        const unsupported = PROBE_METHODS.filter((method) => !methods.includes(method))
        t.ok(unsupported.length > 0, 'some methods are unsupported')
        for (const method of unsupported) {
          for (const query of ['', '?x=1']) {
            const response = await svcInject(app, { method, path }, { method, query })
            expectError(t, response, 405, 'svc_method_not_allowed', `${method}${query}`)
            t.same(listOf(response.headers.allow), allow, `${method}${query}: Allow lists exactly ${allow.join(', ')}`)
          }
          const withBody = await svcInject(app, { method, path }, { method, payload: { code: 'X' } })
          expectError(t, withBody, 405, 'svc_method_not_allowed', `${method} with a JSON body`)
          const crossOrigin = await svcInject(app, { method, path }, { method, headers: { origin: EXTRA_ORIGIN } })
          expectError(t, crossOrigin, 405, 'svc_method_not_allowed', `${method} from the extra origin`)
          expectCors(t, crossOrigin, EXTRA_ORIGIN, `${method} from the extra origin`)
          expectError(t, await svcInject(app, { method, path }, { method, headers: { origin: 'http://evil.example' } }), 403,
            'svc_forbidden_origin', `${method} from a refused origin: the origin check comes first`)
        }
      })
    }
  })

  t.test('a percent-encoded path gets the same rules as the plain one', async (t) => {
    // The router decodes `%73vc` to `svc`; the rules must not depend on how the client spelled the path.
    for (const spec of SVC_ROUTES) {
      t.test(label(spec), async (t) => {
        const prefix = '/wp-json/%73vc/v1'
        expectError(t, await svcInject(app, spec, { prefix, headers: { origin: 'http://evil.example' } }), 403, 'svc_forbidden_origin', 'refused origin')
        expectError(t, await svcInject(app, spec, { prefix, query: '?_jsonp=cb' }), 400, 'svc_jsonp_disabled', 'JSONP')
        const plain = await svcInject(app, spec)
        const encoded = await svcInject(app, spec, { prefix })
        t.equal(encoded.statusCode, plain.statusCode, `without credentials: ${plain.statusCode} either way`)
        t.equal(encoded.json().code, plain.json().code, 'the same code')
        // A public route answers without credentials, and its success is cacheable; everything else is no-store.
        if (spec.access === 'public' && encoded.statusCode === 200) expectPublicCache(t, encoded)
        else expectNoStore(t, encoded)
        const through = await svcInject(app, spec, { prefix, headers: credentialsFor(spec, { cartToken, admin }) })
        expectThrough(t, through, spec, 'with credentials')
        if (spec.rateLimit !== null) t.equal(through.headers['x-ratelimit-limit'], String(spec.rateLimit.max), 'rate limited')
      })
    }
  })

  t.test('caching: no-store on every row, errors included (specification §4.4.5)', async (t) => {
    // Every expectThrough/expectError in this file checks the headers; this lists each status once per row.
    for (const spec of SVC_ROUTES) {
      t.test(label(spec), async (t) => {
        expectThrough(t, await svcInject(app, spec, { headers: credentialsFor(spec, { cartToken, admin }) }), spec)
        expectError(t, await svcInject(app, spec, { headers: { origin: 'null' } }), 403, 'svc_forbidden_origin')
        expectError(t, await svcInject(app, spec, { query: '?_jsonp=cb' }), 400, 'svc_jsonp_disabled')
        expectError(t, await svcInject(app, spec, { method: 'PUT' }), 405, 'svc_method_not_allowed')
        if (spec.access === 'cart') expectError(t, await svcInject(app, spec), 403, 'svc_invalid_cart_token')
        if (spec.access === 'admin') expectError(t, await svcInject(app, spec), 401, 'svc_not_logged_in')
      })
    }
  })

  t.test('the public route: cacheable for five minutes, ETag and 304, Vary: Origin; its errors are no-store', async (t) => {
    const spec = TEST_ROUTES.publicData
    const first = await svcInject(app, spec)
    t.equal(first.statusCode, 200)
    expectPublicCache(t, first)
    const etag = first.headers.etag as string

    const again = await svcInject(app, spec)
    t.equal(again.headers.etag, etag, 'the same data has the same ETag')
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const notModified = await svcInject(app, spec, { headers: { 'if-none-match': ifNoneMatch } })
      t.equal(notModified.statusCode, 304, `If-None-Match: ${ifNoneMatch} → 304`)
      t.equal(notModified.body, '', '304 has no body')
      t.equal(notModified.headers.etag, etag, '304 repeats the ETag')
      t.equal(notModified.headers['cache-control'], 'public, max-age=300', '304 keeps the caching headers')
      t.equal(notModified.headers.vary, 'Origin')
    }
    const stale = await svcInject(app, spec, { headers: { 'if-none-match': '"something-else"' } })
    t.equal(stale.statusCode, 200, 'a different ETag gets the data')

    const fromPartner = await svcInject(app, spec, { headers: { origin: EXTRA_ORIGIN } })
    t.equal(fromPartner.statusCode, 200)
    expectPublicCache(t, fromPartner)
    expectCors(t, fromPartner, EXTRA_ORIGIN, 'public data to the extra origin')
    t.equal(fromPartner.headers.vary, 'Origin', 'the CORS headers vary on Origin')

    const noCredentials = await svcInject(app, spec, { headers: { 'cart-token': 'garbage', 'x-wp-nonce': 'garbage', cookie: 'svc_session=garbage' } })
    t.equal(noCredentials.statusCode, 200, 'public needs nothing and ignores bad credentials')

    publicData.value = { bundles: [] }
    const changed = await svcInject(app, spec, { headers: { 'if-none-match': etag } })
    t.equal(changed.statusCode, 200, 'changed data: the old ETag no longer matches')
    t.not(changed.headers.etag, etag, 'a new ETag')

    expectError(t, await svcInject(app, spec, { query: '?fail=1' }), 400, 'svc_invalid_params', 'an error of the public route')
    expectError(t, await svcInject(app, spec, { query: '?_jsonp=cb' }), 400, 'svc_jsonp_disabled', 'JSONP on the public route')
    expectError(t, await svcInject(app, spec, { headers: { origin: 'http://evil.example' } }), 403, 'svc_forbidden_origin', 'refused origin on the public route')
    expectError(t, await svcInject(app, spec, { method: 'POST' }), 405, 'svc_method_not_allowed', 'POST to the public route')
    const head = await svcInject(app, spec, { method: 'HEAD' })
    t.equal(head.statusCode, 200, 'HEAD')
    t.equal(head.headers['cache-control'], 'public, max-age=300', 'HEAD is cacheable too')

    const realRow = SVC_ROUTES.find((row) => row.access === 'public')!
    expectThrough(t, await svcInject(app, realRow), realRow, `${label(realRow)} needs no credentials`)
  })
})
