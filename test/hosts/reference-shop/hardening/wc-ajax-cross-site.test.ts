import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { test } from 'tap'
import { build, SITE_URL } from '../../../helper.ts'

/**
 * The classic `?wc-ajax=` cart refuses cross-site POSTs (a page elsewhere posting with the shopper's cookies): an
 * `Origin` that is not the shop's or an allowed one, or `Sec-Fetch-Site: cross-site`, is a 403 in the WordPress shape
 * and changes nothing; the shop's own pages and clients sending neither header go on working.
 */

async function ajax (app: FastifyInstance, action: string, form: Record<string, string>, headers: Record<string, string>, cookie?: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: `/?wc-ajax=${action}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}), ...headers },
    payload: new URLSearchParams(form).toString()
  })
}

test('wc-ajax POSTs from another site are refused and change nothing', async (t) => {
  const app = await build(t, { backend: 'memory', allowedOrigins: ['https://partner.example'] })
  // A shopper's classic session holding one Beanie.
  const started = await ajax(app, 'add_to_cart', { product_id: '101' }, { origin: SITE_URL, 'sec-fetch-site': 'same-origin' })
  t.equal(started.statusCode, 200, 'the shop\'s own page adds to the cart')
  const session = started.cookies.find((cookie) => cookie.name === 'svc_cart')!
  const cookie = `svc_cart=${session.value}`
  const hash = started.json().cart_hash as string
  const cartHash = async () => (await app.inject({ method: 'GET', url: '/?wc-ajax=get_refreshed_fragments', headers: { cookie } })).json().cart_hash as string

  const forged: Array<[string, Record<string, string>]> = [
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['Origin: null (a sandboxed frame)', { origin: 'null' }],
    ['a same-looking origin on another port', { origin: `${SITE_URL}:8080` }],
    ['Sec-Fetch-Site: cross-site, even with the shop\'s Origin', { origin: SITE_URL, 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: cross-site alone', { 'sec-fetch-site': 'cross-site' }]
  ]
  for (const [what, headers] of forged) {
    for (const [action, form] of [['add_to_cart', { product_id: '103', quantity: '5' }], ['remove_from_cart', { cart_item_key: 'x' }], ['get_refreshed_fragments', {}]] as const) {
      const response = await ajax(app, action, form, headers, cookie)
      t.equal(response.statusCode, 403, `${what}, ${action}: 403`)
      t.same(response.json(), { code: 'svc_forbidden_origin', message: 'Cross-site requests to the classic cart are not allowed.', data: { status: 403 } },
        `${what}, ${action}: in the WordPress error shape`)
      t.same(response.cookies, [], `${what}, ${action}: no cookie set`)
    }
  }
  t.equal(await cartHash(), hash, 'the cart is as it was')

  const allowedHeaders: Array<[string, Record<string, string>]> = [
    ['no Origin and no Sec-Fetch-Site (a script or a server)', {}],
    ['Sec-Fetch-Site: same-origin alone', { 'sec-fetch-site': 'same-origin' }],
    ['Sec-Fetch-Site: none (typed by the user)', { 'sec-fetch-site': 'none' }],
    ['an allowed origin', { origin: 'https://partner.example', 'sec-fetch-site': 'same-site' }]
  ]
  let quantity = 1
  for (const [what, headers] of allowedHeaders) {
    const response = await ajax(app, 'add_to_cart', { product_id: '101' }, headers, cookie)
    t.equal(response.statusCode, 200, `${what}: 200`)
    quantity++
    t.match(response.json().fragments['div.widget_shopping_cart_content'], `${quantity} &times;`, `${what}: added`)
  }
  const refreshed = await app.inject({ method: 'GET', url: '/?wc-ajax=get_refreshed_fragments', headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })
  t.equal(refreshed.statusCode, 200, 'a GET refresh changes nothing and is not refused')
})
