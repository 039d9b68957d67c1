/**
 * Adding variations, as WooCommerce's Store API does it (CartController::add_to_cart and its variation data checks;
 * the cart route tests' variation cases in Cart.php and CartItems.php): by the variable product with attributes, or by
 * the variation's id. The line's `variation` lists every attribute by its label; attributes may be named
 * `attribute_pa_color`, `pa_color` or by label; a value that contradicts the variation, or an open ("any") attribute
 * left without a valid value, is refused with nothing changed.
 */
import { test } from 'tap'
import { build } from '../../../../helper.ts'
import { Shopper } from '../../../../helpers/store-api-shopper.ts'

const HOODIE = 106
const BLUE_SMALL = 1061
const GREEN_ANY_SIZE = 1063

test('Store API: adding variations', async (t) => {
  const app = await build(t)

  t.test('by the variation id: the line lists the variation\'s attributes by label', async (t) => {
    const shopper = await Shopper.start(app)
    const response = await shopper.add(BLUE_SMALL, 1)
    t.equal(response.statusCode, 201, response.body)
    const [item] = response.json().items
    t.equal(item.id, BLUE_SMALL)
    t.same(item.variation, [{ attribute: 'Color', value: 'blue' }, { attribute: 'Size', value: 'small' }])
  })

  t.test('by the variation id with attribute_pa_ names that agree: accepted, one line', async (t) => {
    const shopper = await Shopper.start(app)
    t.equal((await shopper.add(BLUE_SMALL, 1)).statusCode, 201)
    const again = await shopper.add(BLUE_SMALL, 1, [{ attribute: 'attribute_pa_color', value: 'Blue' }, { attribute: 'Size', value: 'small' }])
    t.equal(again.statusCode, 201, again.body)
    t.equal(again.json().items.length, 1, 'the same line: the attributes are stored in one spelling')
    t.equal(again.json().items[0].quantity, 2)
  })

  t.test('by the variation id with an attribute that contradicts it: 400, nothing added', async (t) => {
    const shopper = await Shopper.start(app)
    const response = await shopper.add(BLUE_SMALL, 1, [{ attribute: 'pa_color', value: 'red' }])
    t.equal(response.statusCode, 400)
    t.equal(response.json().code, 'woocommerce_rest_invalid_variation_data')
    t.equal(response.json().message, 'Invalid value posted for Color. Allowed values: blue')
    t.same((await shopper.cart()).json().items, [])
  })

  t.test('a variation with an open attribute needs a valid value for it', async (t) => {
    const shopper = await Shopper.start(app)
    const missing = await shopper.add(GREEN_ANY_SIZE, 1)
    t.equal(missing.statusCode, 400)
    t.equal(missing.json().code, 'woocommerce_rest_missing_variation_data')
    t.match(missing.json().message, /Size is a required field/)
    const wrong = await shopper.add(GREEN_ANY_SIZE, 1, [{ attribute: 'pa_size', value: 'huge' }])
    t.equal(wrong.statusCode, 400)
    t.equal(wrong.json().code, 'woocommerce_rest_invalid_variation_data')
    const chosen = await shopper.add(GREEN_ANY_SIZE, 1, [{ attribute: 'attribute_pa_size', value: 'large' }])
    t.equal(chosen.statusCode, 201, chosen.body)
    t.same(chosen.json().items[0].variation, [{ attribute: 'Color', value: 'green' }, { attribute: 'Size', value: 'large' }])
  })

  t.test('by the variable product and attributes: the matching variation, its attributes filled in', async (t) => {
    const shopper = await Shopper.start(app)
    const response = await shopper.add(HOODIE, 1, [{ attribute: 'attribute_pa_color', value: 'blue' }, { attribute: 'attribute_pa_size', value: 'small' }])
    t.equal(response.statusCode, 201, response.body)
    const [item] = response.json().items
    t.equal(item.id, BLUE_SMALL)
    t.same(item.variation, [{ attribute: 'Color', value: 'blue' }, { attribute: 'Size', value: 'small' }])
    const sameLine = await shopper.add(BLUE_SMALL, 1)
    t.equal(sameLine.json().items.length, 1, 'by id or by attributes, one line')
  })

  t.test('a simple product ignores variation data', async (t) => {
    const shopper = await Shopper.start(app)
    t.equal((await shopper.add(101, 1)).statusCode, 201)
    const again = await shopper.add(101, 1, [{ attribute: 'pa_color', value: 'red' }])
    t.equal(again.statusCode, 201)
    t.equal(again.json().items.length, 1)
    t.same(again.json().items[0].variation, [])
  })
})
