import { escapeHtml } from '../../../kernel/domain/html.ts'
import { formatMoney } from '../../../kernel/domain/money.ts'
import type { PricedCart } from '../../../kernel/domain/types.ts'
import { permalink, type SerializeContext } from '../store-api/serialize-product.ts'

export const MINI_CART_SELECTOR = 'div.widget_shopping_cart_content'

/**
 * The platform's mini cart: the full outer HTML of `div.widget_shopping_cart_content`, so that a browser can
 * replace the element with it. Every text and attribute value is escaped.
 */
export function renderMiniCart (priced: PricedCart, { currency, homeUrl }: SerializeContext): string {
  if (priced.lines.length === 0) {
    return '<div class="widget_shopping_cart_content"><p class="woocommerce-mini-cart__empty-message">No products in the cart.</p></div>'
  }
  const items = priced.lines.map(({ line, product, parent, unitPrice }) => {
    const name = escapeHtml(product.name)
    const image = product.images[0] ?? parent.images[0]
    const link = escapeHtml(permalink(product, parent, homeUrl, line.variation))
    return '<li class="woocommerce-mini-cart-item mini_cart_item">' +
      `<a href="${escapeHtml(`${homeUrl}/cart/?remove_item=${line.key}`)}" class="remove remove_from_cart_button" aria-label="${escapeHtml(`Remove ${product.name} from cart`)}" ` +
      `data-product_id="${line.productId}" data-cart_item_key="${escapeHtml(line.key)}">&times;</a>` +
      `<a href="${link}">${image ? `<img src="${escapeHtml(image.thumbnail)}" alt="${escapeHtml(image.alt)}" width="64" height="64">` : ''}${name}</a>` +
      `<span class="quantity">${line.quantity} &times; <span class="amount">${escapeHtml(formatMoney(unitPrice, currency))}</span></span>` +
      '</li>'
  }).join('')
  return '<div class="widget_shopping_cart_content">' +
    `<ul class="woocommerce-mini-cart cart_list product_list_widget">${items}</ul>` +
    '<p class="woocommerce-mini-cart__total total"><strong>Subtotal:</strong> ' +
    `<span class="amount">${escapeHtml(formatMoney(priced.totals.totalItems, currency))}</span></p>` +
    '<p class="woocommerce-mini-cart__buttons buttons">' +
    `<a href="${escapeHtml(homeUrl)}/cart/" class="button wc-forward">View cart</a>` +
    `<a href="${escapeHtml(homeUrl)}/checkout/" class="button checkout wc-forward">Checkout</a></p>` +
    '</div>'
}
