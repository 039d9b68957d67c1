/**
 * The cart and checkout pages' script (WooCommerce's cart and checkout blocks in miniature), served as a file so
 * that the pages' Content-Security-Policy can forbid inline scripts. It works over the Store API alone, with the
 * browser's cookie session: it starts with `GET cart`, keeps the last `Nonce` header any answer carried and sends it
 * on every write (a refused or missing nonce is renewed by one `GET cart` and the write made once more).
 *
 * The cart page: quantity changes (`cart/update-item`), removals (`cart/remove-item`), coupons
 * (`cart/apply-coupon`, `cart/remove-coupon`), each answer's cart rendered again. The renderer below writes the
 * same markup as cart-view.ts's renderCartBody and renderOrderSummary, character for character.
 *
 * The checkout page: `POST checkout` with WooCommerce's body, then the answer's `payment_result.redirect_url`; a
 * refusal is shown in the `role="alert"` region, the fields it names marked `aria-invalid`, and the form keeps what
 * was typed.
 */
export const STOREFRONT_CART_SCRIPT_PATH = '/assets/storefront-cart.js'

export const STOREFRONT_CART_SCRIPT = `
const root = document.querySelector('[data-store-api]')
const storeApi = root ? root.dataset.storeApi : ''
const homeUrl = root ? root.dataset.homeUrl : ''
let nonce = root && root.dataset.nonce ? root.dataset.nonce : ''

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
function esc (value) { return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]) }

function formatAmount (amount, c) {
  const rounded = Math.round(Number(amount))
  const negative = rounded < 0
  const minorUnit = Math.max(0, Math.trunc(c.currency_minor_unit))
  const padded = String(Math.abs(rounded)).padStart(minorUnit + 1, '0')
  const whole = padded.slice(0, padded.length - minorUnit)
  const fraction = padded.slice(padded.length - minorUnit)
  const grouped = whole.replace(/\\B(?=(\\d{3})+(?!\\d))/g, c.currency_thousand_separator)
  const number = minorUnit > 0 ? grouped + c.currency_decimal_separator + fraction : grouped
  return (negative ? '-' : '') + c.currency_prefix + number + c.currency_suffix
}

function shippingName (cart) {
  for (const pack of cart.shipping_rates) {
    const selected = pack.shipping_rates.find((rate) => rate.selected)
    if (selected) return selected.name
  }
  return ''
}

function renderTotals (cart) {
  const totals = cart.totals
  const money = (amount) => esc(formatAmount(amount, totals))
  const row = (name, value, className) => '<tr class="' + className + '"><th scope="row">' + esc(name) + '</th><td>' + value + '</td></tr>'
  const discount = Number(totals.total_discount)
  const shipping = totals.total_shipping === null
    ? 'No shipping needed'
    : Number(totals.total_shipping) === 0
      ? esc(shippingName(cart) || 'Free shipping')
      : money(totals.total_shipping) + ' <span class="rate-name">' + esc(shippingName(cart)) + '</span>'
  return '<table class="cart-totals"><caption>Cart totals</caption><tbody>' +
    row('Subtotal', money(totals.total_items), 'subtotal') +
    row('Discount', discount > 0 ? money(-discount) : money(0), 'discount') +
    cart.fees.map((fee) => row(fee.name, money(fee.totals.total), 'fee')).join('') +
    row('Shipping', shipping, 'shipping') +
    row('Tax', money(totals.total_tax), 'tax') +
    row('Total', '<strong>' + money(totals.total_price) + '</strong>', 'order-total') +
    '</tbody></table>'
}

function renderCartErrors (cart) {
  if (cart.errors.length === 0) return ''
  return '<ul class="cart-errors">' + cart.errors.map((error) => '<li>' + esc(error.message) + '</li>').join('') + '</ul>'
}

function renderLine (item, cart) {
  const image = item.images[0]
  const limits = item.quantity_limits
  const variation = item.variation.length === 0
    ? ''
    : '<dl class="variation">' + item.variation.map((choice) => '<dt>' + esc(choice.attribute) + ':</dt><dd>' + esc(choice.value) + '</dd>').join('') + '</dl>'
  const quantityId = 'quantity-' + item.key
  const quantity = limits.editable
    ? '<label class="visually-hidden" for="' + esc(quantityId) + '">' + esc('Quantity of ' + item.name) + '</label>' +
      '<input id="' + esc(quantityId) + '" class="quantity" type="number" inputmode="numeric" name="quantity" value="' + item.quantity + '" ' +
      'min="' + limits.minimum + '" max="' + limits.maximum + '" step="' + limits.multiple_of + '" data-key="' + esc(item.key) + '">'
    : '<span class="quantity">' + item.quantity + '</span>'
  return '<tr class="cart-line" data-key="' + esc(item.key) + '">' +
    '<td class="product-thumbnail">' +
    (image ? '<img src="' + esc(image.thumbnail) + '" alt="' + esc(image.alt) + '" width="64" height="64">' : '') + '</td>' +
    '<td class="product-name"><a href="' + esc(item.permalink) + '">' + esc(item.name) + '</a>' + variation + '</td>' +
    '<td class="product-price">' + (item.prices.price === '' ? '' : esc(formatAmount(item.prices.price, cart.totals))) + '</td>' +
    '<td class="product-quantity">' + quantity + '</td>' +
    '<td class="product-subtotal">' + esc(formatAmount(item.totals.line_subtotal, cart.totals)) + '</td>' +
    '<td class="product-remove">' +
    '<button type="button" class="remove" data-key="' + esc(item.key) + '" aria-label="' + esc('Remove ' + item.name + ' from the cart') + '">Remove</button></td>' +
    '</tr>'
}

function renderCartBody (cart) {
  if (cart.items.length === 0) {
    return renderCartErrors(cart) + '<p class="cart-empty">Your cart is currently empty.</p>' +
      '<p class="return-to-shop"><a href="' + esc(homeUrl + '/') + '">Return to the shop</a></p>'
  }
  const coupons = cart.coupons.length === 0
    ? ''
    : '<ul class="applied-coupons" aria-label="Applied coupons">' + cart.coupons.map((coupon) =>
      '<li><span class="coupon-code">' + esc(coupon.code) + '</span> <span class="coupon-discount">' + esc(formatAmount(-Number(coupon.totals.total_discount), cart.totals)) + '</span> ' +
      '<button type="button" class="remove-coupon" data-code="' + esc(coupon.code) + '" aria-label="' + esc('Remove coupon ' + coupon.code) + '">Remove</button></li>').join('') +
      '</ul>'
  return renderCartErrors(cart) +
    '<table class="cart-lines"><caption class="visually-hidden">Products in the cart</caption><thead><tr>' +
    '<th scope="col"><span class="visually-hidden">Picture</span></th><th scope="col">Product</th><th scope="col">Price</th>' +
    '<th scope="col">Quantity</th><th scope="col">Subtotal</th><th scope="col"><span class="visually-hidden">Remove</span></th>' +
    '</tr></thead><tbody>' + cart.items.map((item) => renderLine(item, cart)).join('') + '</tbody></table>' +
    '<form id="coupon-form" class="coupon"><label for="coupon-code">Coupon code</label>' +
    '<input id="coupon-code" name="code" type="text" autocomplete="off" required>' +
    '<button type="submit">Apply coupon</button></form>' +
    coupons +
    renderTotals(cart) +
    '<p class="proceed"><a class="button checkout-button" href="' + esc(homeUrl + '/checkout/') + '">Proceed to checkout</a></p>'
}

function renderOrderSummary (cart) {
  const lines = cart.items.map((item) =>
    '<li><span class="summary-name">' + esc(item.name) + '</span>' +
    (item.variation.length === 0 ? '' : ' <span class="summary-variation">(' + esc(item.variation.map((choice) => choice.attribute + ': ' + choice.value).join(', ')) + ')</span>') +
    ' <span class="summary-quantity">× ' + item.quantity + '</span> <span class="summary-total">' + esc(formatAmount(item.totals.line_subtotal, cart.totals)) + '</span></li>').join('')
  const coupons = cart.coupons.length === 0
    ? ''
    : '<p class="summary-coupons">Coupons: ' + esc(cart.coupons.map((coupon) => coupon.code).join(', ')) + '</p>'
  return '<ul class="summary-lines">' + lines + '</ul>' + coupons + renderTotals(cart)
}

function remember (response) {
  const fresh = response.headers.get('Nonce')
  if (fresh) nonce = fresh
}

async function readJson (response) {
  try { return await response.json() } catch { return null }
}

/** A Store API call with the cookie session; writes carry the last nonce seen. */
async function storeApiCall (method, path, body) {
  const send = () => {
    const headers = { Accept: 'application/json' }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    if (method !== 'GET' && nonce) headers.Nonce = nonce
    return fetch(storeApi + path, { method, credentials: 'same-origin', headers, body: body === undefined ? undefined : JSON.stringify(body) })
  }
  let response = await send()
  remember(response)
  let data = await readJson(response)
  if (method !== 'GET' && (response.status === 401 || response.status === 403) && data &&
    (data.code === 'woocommerce_rest_missing_nonce' || data.code === 'woocommerce_rest_invalid_nonce')) {
    remember(await fetch(storeApi + 'cart', { credentials: 'same-origin', headers: { Accept: 'application/json' } }))
    response = await send()
    remember(response)
    data = await readJson(response)
  }
  return { ok: response.ok, status: response.status, data }
}

const UNREACHABLE = 'The shop could not be reached. Please try again.'

function errorMessage (data, fallback) {
  return data && typeof data.message === 'string' && data.message !== '' ? data.message : fallback
}

// The cart page.
const cartRoot = document.getElementById('storefront-cart')
if (cartRoot) {
  const body = document.getElementById('cart-body')
  const notice = document.getElementById('cart-notice')
  const status = document.getElementById('cart-status')
  let busy = false

  function show (cart) {
    // Keep the keyboard where it was: the same control of the same line, else the same field, else the cart's first control.
    const active = document.activeElement
    const inside = active !== null && body.contains(active)
    const key = inside ? active.dataset.key : undefined
    const kind = inside ? active.classList[0] : undefined
    const id = inside ? active.id : ''
    body.innerHTML = renderCartBody(cart)
    cartRoot.dataset.itemsCount = String(cart.items_count)
    for (const count of document.querySelectorAll('.shop-links .cart-count')) count.textContent = '(' + cart.items_count + ')'
    if (!inside) return
    const target = (key && kind && body.querySelector('.' + CSS.escape(kind) + '[data-key="' + CSS.escape(key) + '"]')) ||
      (id && document.getElementById(id)) || body.querySelector('input, button, a')
    if (target) target.focus()
  }

  async function change (path, payload, done) {
    if (busy) return
    busy = true
    cartRoot.setAttribute('aria-busy', 'true')
    notice.textContent = ''
    try {
      const result = await storeApiCall('POST', path, payload)
      if (result.ok) {
        show(result.data)
        status.textContent = done
      } else {
        notice.textContent = errorMessage(result.data, 'The cart could not be changed.')
        const cart = result.data && result.data.data && result.data.data.cart
        if (cart) show(cart)
        else { const fresh = await storeApiCall('GET', 'cart'); if (fresh.ok) show(fresh.data) }
      }
    } catch {
      notice.textContent = UNREACHABLE
    } finally {
      busy = false
      cartRoot.setAttribute('aria-busy', 'false')
    }
  }

  body.addEventListener('change', (event) => {
    const input = event.target.closest('input.quantity[data-key]')
    if (!input) return
    const quantity = Number(input.value)
    if (!Number.isInteger(quantity) || quantity < 0) { notice.textContent = 'Please enter a whole number.'; return }
    if (quantity === 0) change('cart/remove-item', { key: input.dataset.key }, 'The product was removed from the cart.')
    else change('cart/update-item', { key: input.dataset.key, quantity }, 'The cart was updated.')
  })
  body.addEventListener('click', (event) => {
    const remove = event.target.closest('button.remove[data-key]')
    if (remove) { change('cart/remove-item', { key: remove.dataset.key }, 'The product was removed from the cart.'); return }
    const removeCoupon = event.target.closest('button.remove-coupon[data-code]')
    if (removeCoupon) change('cart/remove-coupon', { code: removeCoupon.dataset.code }, 'The coupon was removed.')
  })
  body.addEventListener('submit', (event) => {
    const form = event.target.closest('#coupon-form')
    if (!form) return
    event.preventDefault()
    const code = form.elements.code.value.trim()
    if (code === '') { notice.textContent = 'Please enter a coupon code.'; return }
    change('cart/apply-coupon', { code }, 'The coupon was applied.')
  })

  storeApiCall('GET', 'cart').then((result) => {
    if (result.ok) show(result.data)
    cartRoot.dataset.ready = 'true'
  }, () => { notice.textContent = UNREACHABLE })
}

// The checkout page.
const form = document.getElementById('checkout-form')
if (form) {
  const alert = document.getElementById('checkout-error')
  const summary = document.getElementById('checkout-summary')
  const button = document.getElementById('place-order')
  const checkoutRoot = document.getElementById('storefront-checkout')
  const shipElsewhere = document.getElementById('ship-to-different-address')
  const shippingFields = document.getElementById('shipping-fields')
  const ADDRESS = ['first_name', 'last_name', 'company', 'address_1', 'address_2', 'city', 'state', 'postcode', 'country', 'phone']
  const LABELS = {
    first_name: 'First name', last_name: 'Last name', address_1: 'Street address', city: 'Town / City',
    postcode: 'Postcode / ZIP', country: 'Country / Region', email: 'Email address'
  }

  function syncShipping () {
    if (!shipElsewhere) return
    shippingFields.hidden = !shipElsewhere.checked
    for (const input of shippingFields.querySelectorAll('[data-required="true"], select')) input.required = shipElsewhere.checked
  }
  shipElsewhere?.addEventListener('change', syncShipping)
  syncShipping()

  const field = (id) => form.elements[id]
  const value = (id) => (field(id) ? field(id).value.trim() : '')
  function address (kind) {
    const result = {}
    for (const name of ADDRESS) result[name] = value(kind + '_' + name)
    return result
  }

  function clearErrors () {
    alert.textContent = ''
    for (const element of form.querySelectorAll('[aria-invalid]')) element.removeAttribute('aria-invalid')
  }

  // Which inputs a message names: "Email address is required.", ""XX" is not a valid postal code for …".
  const WORDS = [
    ['email', /e-?mail/i], ['first_name', /first name/i], ['last_name', /last name/i], ['company', /company/i],
    ['postcode', /post(al)? ?code|zip/i], ['country', /country/i], ['state', /\\b(state|county|province)\\b/i],
    ['city', /\\b(city|town)\\b/i], ['phone', /phone/i], ['address_2', /apartment|address[ _]?2/i],
    ['address_1', /street|address[ _]?1|(^|[^l] )address\\b/i]
  ]
  function fieldsNamed (kind, text) {
    const ids = []
    for (const [name, pattern] of WORDS) if (pattern.test(text)) ids.push(kind + '_' + name)
    return ids
  }

  /** The inputs an error names: data.params and data.details (WooCommerce's rest_invalid_param), by key and by message. */
  function invalidFields (data) {
    const ids = new Set()
    const found = (key, message) => {
      const kind = /^shipping/.test(key) ? 'shipping' : /^billing/.test(key) ? 'billing' : null
      if (key === 'payment_method') { for (const radio of form.querySelectorAll('input[name="payment_method"]')) ids.add(radio.id); return }
      if (key === 'customer_note') { ids.add('order_comments'); return }
      if (kind === null) return
      const exact = key.replace(/^(billing|shipping)(_address)?[._]?/, '')
      if (exact !== '' && field(kind + '_' + exact)) { ids.add(kind + '_' + exact); return }
      // "There was a problem with the provided billing address: …": the problems follow the colon.
      const named = fieldsNamed(kind, String(message || '').replace(/^[^:]*\\baddress:\\s*/i, ''))
      for (const id of named) if (field(id)) ids.add(id)
    }
    const params = data && data.data && data.data.params
    const details = data && data.data && data.data.details
    // The platform's own list of each address's problems, one sentence each.
    const listed = data && data.data && data.data.errors
    if (listed && typeof listed === 'object') {
      for (const kind of ['billing', 'shipping']) if (Array.isArray(listed[kind])) for (const problem of listed[kind]) found(kind + '_address', problem)
    }
    if (params && typeof params === 'object') {
      for (const [key, message] of Object.entries(params)) {
        if (message && typeof message === 'object') { for (const [inner, text] of Object.entries(message)) found(key + '.' + inner, text) } else found(key, message)
        const detail = details && details[key]
        const nested = detail && detail.data && detail.data.params
        if (nested && typeof nested === 'object') for (const [inner, text] of Object.entries(nested)) found(key + '.' + inner, text)
      }
    }
    if (data && typeof data.code === 'string' && data.code.includes('payment_method')) found('payment_method', '')
    return [...ids]
  }

  function showError (data, fallback) {
    const params = data && data.data && data.data.params && typeof data.data.params === 'object' ? Object.values(data.data.params) : []
    const messages = params.flatMap((entry) => entry && typeof entry === 'object' ? Object.values(entry) : [entry]).filter((entry) => typeof entry === 'string' && entry !== '')
    const main = errorMessage(data, fallback)
    alert.innerHTML = '<p>' + esc(main) + '</p>' + (messages.length > 0 ? '<ul>' + messages.map((message) => '<li>' + esc(message) + '</li>').join('') + '</ul>' : '')
    if (data && data.code === 'woocommerce_rest_cart_empty') alert.innerHTML += '<p><a href="' + esc(homeUrl + '/') + '">Return to the shop</a></p>'
    const ids = invalidFields(data)
    for (const id of ids) document.getElementById(id)?.setAttribute('aria-invalid', 'true')
    const first = ids.map((id) => document.getElementById(id)).find((element) => element && !element.closest('[hidden]'))
    if (first) first.focus()
    else alert.focus()
  }

  async function refreshSummary () {
    try {
      const result = await storeApiCall('GET', 'cart')
      if (result.ok && summary) summary.innerHTML = renderOrderSummary(result.data)
    } catch {}
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (button.disabled) return
    clearErrors()
    const separate = shipElsewhere ? shipElsewhere.checked : false
    const billing = { ...address('billing'), email: value('billing_email') }
    const shipping = separate ? address('shipping') : address('billing')
    // The required fields, checked before anything is sent; everything else is the server's to judge.
    const missing = [...form.querySelectorAll('[required]')].filter((input) => input.type !== 'radio' && !input.closest('[hidden]') && input.value.trim() === '')
    if (missing.length > 0) {
      for (const input of missing) input.setAttribute('aria-invalid', 'true')
      alert.innerHTML = '<p>Please fill in the required fields.</p><ul>' + missing.map((input) => '<li>' + esc((input.closest('fieldset')?.querySelector('legend')?.textContent || '') + ': ' + (LABELS[input.name.replace(/^(billing|shipping)_/, '')] || input.name)) + '</li>').join('') + '</ul>'
      missing[0].focus()
      return
    }
    const method = form.querySelector('input[name="payment_method"]:checked')
    const payload = {
      billing_address: billing,
      shipping_address: shipping,
      customer_note: value('order_comments'),
      payment_method: method ? method.value : '',
      payment_data: []
    }
    button.disabled = true
    button.setAttribute('aria-busy', 'true')
    checkoutRoot?.setAttribute('aria-busy', 'true')
    try {
      const result = await storeApiCall('POST', 'checkout', payload)
      const redirect = result.ok && result.data && result.data.payment_result && result.data.payment_result.redirect_url
      if (result.ok && (redirect || result.data.order_id)) {
        location.assign(redirect || homeUrl + '/checkout/order-received/' + result.data.order_id + '/?key=' + encodeURIComponent(result.data.order_key))
        return
      }
      showError(result.data, 'Your order could not be placed. Please try again.')
      await refreshSummary()
    } catch {
      showError(null, UNREACHABLE)
    } finally {
      button.disabled = false
      button.removeAttribute('aria-busy')
      checkoutRoot?.setAttribute('aria-busy', 'false')
    }
  })

  storeApiCall('GET', 'cart').then((result) => {
    if (result.ok && summary) summary.innerHTML = renderOrderSummary(result.data)
    if (checkoutRoot) checkoutRoot.dataset.ready = 'true'
  }, () => {})
}
`
