import type { FastifyInstance } from 'fastify'
import { test } from 'tap'
import { SVC_FRAGMENT_KEY } from '../../../../drawer/plugins/fragments/index.ts'
import { buildPluginAlone, declaredDependencies, expectDependenciesRequired } from '../../../helper.ts'

function addToCart (app: FastifyInstance, productId: number) {
  return app.inject({
    method: 'POST',
    url: '/?wc-ajax=add_to_cart',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ product_id: String(productId), quantity: '1' }).toString()
  })
}

/** The fragments plugin alone (with the plugins it declares): `.svc-cart-json` on the classic AJAX answers. */
test('fragments alone: the classic add_to_cart answer holds .svc-cart-json, while the drawer is enabled', async (t) => {
  const { app } = await buildPluginAlone(t, 'fragments')
  const added = await addToCart(app, 101)
  t.equal(added.statusCode, 200, 'the classic add to cart answers', { found: added.body })
  const fragment = added.json().fragments[SVC_FRAGMENT_KEY] as string
  t.match(fragment, /^<script type="application\/json" class="svc-cart-json">/, 'the fragment is a JSON script element')
  t.match(JSON.parse(fragment.replace(/^<script[^>]*>|<\/script>$/g, '')), { cartCount: 1 }, "holding the drawer's cart state")

  t.ok((await app.settings.save({ enabled: false })).ok)
  const off = await addToCart(app, 103)
  t.equal(off.statusCode, 200)
  t.notOk(SVC_FRAGMENT_KEY in off.json().fragments, 'no fragment while the drawer is switched off')
})

test('fragments does not start without a dependency it declares', async (t) => {
  t.same(declaredDependencies('fragments'), ['commerce', 'settings', 'store-api-extension'])
  await expectDependenciesRequired(t, 'fragments')
})
