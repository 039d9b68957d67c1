import { h, safeUrl } from '../dom.ts'
import type { I18n } from '../i18n.ts'
import type { Product } from '../types.ts'

/** A product with a picture, its price and one button. */
export function productCard (product: Product, i18n: I18n, focusKey: string, onAdd: () => void): HTMLElement {
  const label = i18n.t('add')
  const spoken = i18n.t('addName', { name: product.name })
  const { prices, currency } = product
  return h('li', { class: 'svc-card', 'data-product-id': product.id },
    h('img', { src: safeUrl(product.image?.thumbnail), alt: '', width: 44, height: 44, loading: 'lazy' }),
    h('div', {},
      h('a', { class: 'svc-name', href: safeUrl(product.permalink), dir: 'auto' }, product.name),
      h('p', { class: 'svc-meta' },
        prices.on_sale && h('s', {}, h('bdi', {}, i18n.money(prices.regular_price, currency))), prices.on_sale && ' ',
        h('bdi', {}, i18n.money(prices.price, currency)))),
    h('button', { type: 'button', class: 'svc-btn', 'aria-label': spoken, 'data-fk': focusKey, onclick: onAdd }, label))
}

/** Recommended products not already in the cart, each with an add button. */
export function renderRecommendations (products: Product[], inCart: Set<number>, i18n: I18n, onAdd: (product: Product) => void): Node[] {
  const shown = products.filter((product) => !inCart.has(product.id))
  if (shown.length === 0) return []
  return [
    h('h3', { id: 'svc-recs-title' }, i18n.t('recsTitle')),
    h('ul', { class: 'svc-cards', 'aria-labelledby': 'svc-recs-title' },
      ...shown.map((product) => productCard(product, i18n, `rec:${product.id}`, () => onAdd(product))))
  ]
}
