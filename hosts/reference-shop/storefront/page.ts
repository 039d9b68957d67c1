import { effectivePrice, isInStock } from '../../../kernel/domain/catalog.ts'
import { escapeHtml } from '../../../kernel/domain/html.ts'
import { formatMoney } from '../../../kernel/domain/money.ts'
import type { Currency, Product } from '../../../kernel/domain/types.ts'

function productCard (product: Product, currency: Currency, homeUrl: string): string {
  const price = effectivePrice(product)
  const image = product.images[0]
  const buyable = product.type === 'simple' && isInStock(product) && price !== null
  const link = `${homeUrl}/product/${encodeURIComponent(product.slug)}/`
  // The button's name begins with its visible text, as WooCommerce writes it (WCAG 2.5.3, label in name).
  const action = buyable
    ? `<button type="button" class="add-to-cart" data-product-id="${product.id}" aria-label="${escapeHtml(`Add to cart: “${product.name}”`)}">Add to cart</button>`
    : product.type === 'variable'
      ? `<a class="choose-options" href="${escapeHtml(link)}">Choose options</a>`
      : `<span class="unavailable">${price === null ? 'Not for sale yet' : 'Out of stock'}</span>`
  return `<li class="product" data-product-id="${product.id}">
  ${image ? `<img src="${escapeHtml(image.thumbnail)}" alt="${escapeHtml(image.alt)}" width="96" height="96">` : ''}
  <h2><a href="${escapeHtml(link)}">${escapeHtml(product.name)}</a></h2>
  <p class="price">${price === null ? '' : escapeHtml(formatMoney(price, currency))}</p>
  <p class="short-description">${escapeHtml(product.shortDescription)}</p>
  ${action}
</li>`
}

/** The shop page's content: every listed product, with a classic add-to-cart button where one can be bought. */
export function renderProductList (products: readonly Product[], currency: Currency, homeUrl: string): string {
  return `<h1>Shop</h1>
<ul class="products">
${products.map((product) => productCard(product, currency, homeUrl)).join('\n')}
</ul>`
}
