/**
 * The drawer's settings for the demo, saved when the shop starts (`app.settings.save`, as the admin screen's
 * settings route does): in Pro, three reward tiers (free shipping from €40, 10 % off from €60, a brass bookmark
 * from €80, on the subtotal after discounts), the gift-wrap add-on, the pen-and-ink bundle (20 % off both) and the
 * washi tape in the spotlight; in Free, the one tier the edition has (free shipping from €40).
 */
const always = { match: 'all', conditions: [] }
const FREE_SHIPPING = { id: 'ship', label: 'Free shipping', reward: 'free_shipping', threshold: 4000, amount: 0, product_id: 0, conditions: always }

export const DEMO_SETTINGS = {
  free: { rewards: { tiers: [FREE_SHIPPING] } },
  pro: {
    launcher: { show_total: true },
    rewards: {
      tiers: [
        FREE_SHIPPING,
        { id: 'ten-off', label: '10% off', reward: 'percent_discount', threshold: 6000, amount: 10, product_id: 0, conditions: always },
        { id: 'bookmark', label: 'A brass bookmark', reward: 'gift', threshold: 8000, amount: 0, product_id: 7, conditions: always }
      ]
    },
    smart_addons: { enabled: true, addons: [{ id: 'gift-wrap', product_id: 6, label: 'Gift wrap', description: 'Wrapped in paper with a card.', conditions: always }] },
    bundles: {
      enabled: true,
      bundles: [{ id: 'pen-and-ink', title: 'Pen and ink', description: 'The pen and its ink, 20 % off both.', discount_percent: 20, slots: [{ label: 'Pen', product_ids: [2] }, { label: 'Ink', product_ids: [3] }] }]
    },
    spotlight: { enabled: true, product_id: 8, title: 'Add some colour', text: 'Three rolls of washi tape.', conditions: always }
  }
} as const
