import { h } from '../dom.ts'
import type { I18n } from '../i18n.ts'
import type { CartState, SmartAddon, Spotlight } from '../types.ts'
import { productCard } from './products.ts'

/** Optional extras with a toggle each: ticking adds the (locked) add-on line, unticking removes it. */
export function renderAddons (addons: SmartAddon[], i18n: I18n, onToggle: (addon: SmartAddon, active: boolean) => void): Node[] {
  if (addons.length === 0) return []
  return [
    h('h3', { id: 'svc-addons-title' }, i18n.t('addonsTitle')),
    h('ul', { class: 'svc-cards', 'aria-labelledby': 'svc-addons-title' }, ...addons.map((addon) => {
      const box = h('input', { type: 'checkbox', checked: addon.active, 'data-fk': `addon:${addon.id}` })
      box.addEventListener('change', () => onToggle(addon, box.checked))
      return h('li', {},
        h('label', { class: 'svc-addon' }, box,
          h('span', {},
            h('strong', {}, addon.label), ' ', i18n.t('addonPrice', { price: i18n.money(addon.product.prices.price, addon.product.currency) }),
            addon.description && h('span', { class: 'svc-meta', style: 'display:block', dir: 'auto' }, addon.description))))
    }))
  ]
}

/** The featured offer, while it applies and is not in the cart yet. */
export function renderSpotlight (spotlight: Spotlight, cart: CartState | null, i18n: I18n, onAdd: () => void): Node[] {
  if (spotlight === null) return []
  const inCart = spotlight.in_cart || (cart?.cartItems.some((item) => item.product_id === spotlight.product.id) ?? false)
  if (inCart) return []
  return [h('div', { class: 'svc-spotlight' },
    h('h3', { dir: 'auto' }, spotlight.title || i18n.t('spotlightTitle')),
    spotlight.text && h('p', { class: 'svc-meta', dir: 'auto' }, spotlight.text),
    h('ul', { class: 'svc-cards' }, productCard(spotlight.product, i18n, 'spotlight', onAdd)))]
}
