/**
 * The platform's own page script (WooCommerce's `add-to-cart.js` and `add-to-cart-variation.js` in miniature): the
 * classic AJAX add to cart, the variation form of a variable product, and the demo login form. It makes no request
 * after an add: the fragments arrive with the answer, replace their elements, and travel with the `added_to_cart`
 * event (a DOM `CustomEvent` on `document.body`, and the jQuery event when jQuery is on the page).
 *
 * The header's count and the mini cart follow the drawer: on its `svc:cart-updated` event the count is the event's,
 * and the mini cart (a collapsed `<details>`) is fetched again (`get_refreshed_fragments`) when it is open, or as it
 * opens, and only when the event's cart hash is not that of the cart it shows: an add, whose fragments the page has
 * applied, costs no request.
 */
/** Served as a file, so that the pages' Content-Security-Policy can forbid inline scripts. */
export const CLASSIC_SCRIPT_PATH = '/assets/shop-classic.js'

export const CLASSIC_SCRIPT = `
const message = document.getElementById('shop-message')
function say (text) { if (message) message.textContent = text }

const miniCart = document.querySelector('details.mini-cart')
// The hash of the cart the mini cart shows, and of the cart as last told.
let shownHash = miniCart ? miniCart.dataset.cartHash : ''
let cartHash = shownHash
let refreshes = 0

function showCount (count) {
  for (const element of document.querySelectorAll('.shop-links .cart-count')) element.textContent = '(' + count + ')'
}

function applyFragments (fragments) {
  for (const [selector, html] of Object.entries(fragments)) {
    if (typeof html !== 'string') continue
    for (const element of document.querySelectorAll(selector)) {
      const template = document.createElement('template')
      template.innerHTML = html
      element.replaceWith(template.content)
    }
  }
}

async function addToCart (fields, button) {
  button.disabled = true
  button.setAttribute('aria-busy', 'true')
  try {
    const response = await fetch('/?wc-ajax=add_to_cart', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields)
    })
    const data = await response.json()
    if (!response.ok || data.error) {
      say('This product could not be added to the cart.')
      return
    }
    applyFragments(data.fragments)
    shownHash = cartHash = data.cart_hash
    document.body.dispatchEvent(new CustomEvent('added_to_cart', { detail: { fragments: data.fragments, cartHash: data.cart_hash, button } }))
    if (window.jQuery) window.jQuery(document.body).trigger('added_to_cart', [data.fragments, data.cart_hash, window.jQuery(button)])
    say('Added to the cart.')
  } catch {
    say('The shop could not be reached. Please try again.')
  } finally {
    button.disabled = false
    button.removeAttribute('aria-busy')
  }
}

/** The open mini cart as the cookie cart stands, when it shows another; only the last of overlapping refreshes is shown. */
async function refreshMiniCart () {
  if (!miniCart || !miniCart.open || cartHash === shownHash) return
  const refresh = ++refreshes
  try {
    const response = await fetch('/?wc-ajax=get_refreshed_fragments', { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    const data = await response.json()
    if (refresh !== refreshes || !response.ok || !data.fragments) return
    applyFragments(data.fragments)
    shownHash = data.cart_hash
  } catch {}
}

document.addEventListener('svc:cart-updated', (event) => {
  const detail = event.detail || {}
  if (Number.isInteger(detail.itemCount)) showCount(detail.itemCount)
  if (typeof detail.cartHash === 'string') {
    cartHash = detail.cartHash
    refreshMiniCart()
  }
})
miniCart?.addEventListener('toggle', refreshMiniCart)

document.addEventListener('click', (event) => {
  const button = event.target.closest('button.add-to-cart[data-product-id]')
  if (!button) return
  addToCart({ product_id: button.dataset.productId, quantity: '1' }, button)
})

// The product page: a form posting product_id, quantity, and for a variable product variation_id and attribute_*.
const form = document.querySelector('form.cart')
const variationsData = document.getElementById('product-variations')
if (form) {
  const button = form.querySelector('button[type="submit"]')
  const price = document.getElementById('variation-price')
  const variations = variationsData ? JSON.parse(variationsData.textContent) : null
  function choose () {
    if (!variations) return
    const chosen = Object.fromEntries([...form.querySelectorAll('select[name^="attribute_"]')].map((select) => [select.name.slice(10), select.value]))
    const complete = Object.values(chosen).every((value) => value !== '')
    let best = null
    let bestScore = -1
    for (const variation of variations) {
      let score = 0
      let matches = true
      for (const [name, value] of Object.entries(variation.attributes)) {
        if (value === '') continue
        if (chosen[name] !== value) { matches = false; break }
        score++
      }
      if (matches && score > bestScore) { best = variation; bestScore = score }
    }
    form.elements.variation_id.value = complete && best ? String(best.id) : ''
    button.disabled = !(complete && best && best.inStock)
    price.textContent = !complete ? 'Choose a colour and a size.' : !best ? 'This combination is not available.' : best.inStock ? best.price : best.price + ' (out of stock)'
  }
  form.addEventListener('change', choose)
  choose()
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    addToCart(Object.fromEntries(new FormData(form)), button)
  })
}

const login = document.getElementById('login')
login?.addEventListener('submit', async (event) => {
  event.preventDefault()
  const fields = new FormData(login)
  const response = await fetch('/account/login', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: fields.get('email'), password: fields.get('password') })
  })
  if (response.ok) location.reload()
  else document.getElementById('login-message').textContent = (await response.json()).message
})
document.getElementById('logout')?.addEventListener('click', async () => {
  await fetch('/account/logout', { method: 'POST', credentials: 'same-origin' })
  location.reload()
})
`
