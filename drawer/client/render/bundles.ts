import { h } from '../dom.ts'
import type { I18n } from '../i18n.ts'
import type { Bundle, BundleCompanions, Product } from '../types.ts'

interface Slot {
  label: string
  /** The product that fills the slot already (the product the companions were asked for), or the choices. */
  fixed: { id: number, name: string } | null
  products: Product[]
}

interface BundleModel {
  key: string
  id: string
  title: string
  description: string
  discount: number
  slots: Slot[]
}

export type AddBundle = (bundleId: string, productIds: number[], title: string) => void

/** The shopper's choice per slot, kept across redraws. */
const chosen = new Map<string, number[]>()

function fromConfig (bundle: Bundle): BundleModel {
  return {
    key: `b-${bundle.id}`,
    id: bundle.id,
    title: bundle.title,
    description: bundle.description,
    discount: bundle.discount_percent,
    slots: bundle.slots.map((slot) => ({ label: slot.label, fixed: null, products: slot.products }))
  }
}

function fromCompanions (productId: number, productName: string, entry: BundleCompanions[number]): BundleModel {
  const slots: Slot[] = Array.from({ length: entry.slot_count }, () => ({ label: '', fixed: null, products: [] }))
  slots[entry.slot_index] = { label: entry.slot_label, fixed: { id: productId, name: productName }, products: [] }
  for (const slot of entry.companion_slots) slots[slot.index] = { label: slot.label, fixed: null, products: slot.products }
  return { key: `c-${entry.id}-${productId}`, id: entry.id, title: entry.title, description: entry.description, discount: entry.discount_percent, slots }
}

function card (model: BundleModel, i18n: I18n, onAdd: AddBundle): HTMLElement {
  const picks = chosen.get(model.key) ?? model.slots.map((slot) => slot.fixed?.id ?? slot.products[0]?.id ?? 0)
  chosen.set(model.key, picks)
  const slots = model.slots.map((slot, index) => {
    if (slot.fixed !== null) return h('p', { class: 'svc-meta' }, i18n.t('detail', { label: slot.label, value: slot.fixed.name }))
    const select = h('select', { 'data-fk': `${model.key}:${index}` }, ...slot.products.map((product) =>
      h('option', { value: product.id, selected: product.id === picks[index] }, i18n.t('bundleOption', { name: product.name, price: i18n.money(product.prices.price, product.currency) }))))
    select.addEventListener('change', () => { picks[index] = Number(select.value) })
    return h('label', {}, slot.label, select)
  })
  return h('div', { class: 'svc-bundle', 'data-bundle': model.id },
    h('strong', {}, model.title), ' ', model.discount > 0 && h('span', { class: 'svc-tag' }, i18n.t('bundleSave', { percent: model.discount / 100 })),
    model.description && h('p', { class: 'svc-meta', dir: 'auto' }, model.description),
    ...slots,
    h('button', {
      type: 'button',
      class: 'svc-btn',
      'aria-label': i18n.t('bundleAddName', { title: model.title }),
      'data-fk': `add:${model.key}`,
      onclick: () => onAdd(model.id, [...picks], model.title)
    }, i18n.t('bundleAdd')))
}

/** The bundle builder: the bundles around a product in the cart first (its companions), then every bundle on offer. */
export function renderBundles (bundles: Bundle[], companions: { productId: number, name: string, bundles: BundleCompanions } | null, i18n: I18n, onAdd: AddBundle): Node[] {
  const models = [
    ...(companions?.bundles ?? []).map((entry) => fromCompanions(companions!.productId, companions!.name, entry)),
    ...bundles.map(fromConfig)
  ]
  if (models.length === 0) return []
  return [h('h3', {}, i18n.t('bundlesTitle')), ...models.map((model) => card(model, i18n, onAdd))]
}
