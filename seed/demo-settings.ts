import type { Storage } from '../storage/contract/index.ts'

const always = { match: 'all', conditions: [] }

/**
 * The demo shop's drawer settings, so that a newcomer sees every feature of the edition at once: reward
 * tiers (in Free the one free-shipping tier), and in Pro two add-ons, a bundle and a spotlight offer. Products are the
 * demo catalog's (seed/demo-catalog.ts).
 */
export function demoSettings (edition: 'free' | 'pro'): Record<string, unknown> {
  const freeShipping = { id: 'free-shipping', label: 'Free shipping', reward: 'free_shipping', threshold: 5000, amount: 0, product_id: 0, conditions: always }
  if (edition === 'free') return { rewards: { tiers: [freeShipping] } }
  return {
    rewards: {
      tiers: [
        freeShipping,
        { id: 'ten-off', label: '10% off your order', reward: 'percent_discount', threshold: 10000, amount: 10, product_id: 0, conditions: always },
        { id: 'free-pick', label: 'A free guitar pick', reward: 'gift', threshold: 15000, amount: 0, product_id: 118, conditions: always }
      ]
    },
    smart_addons: {
      enabled: true,
      addons: [
        { id: 'gift-wrap', product_id: 116, label: 'Gift wrap', description: 'Wrapped with a ribbon and a card.', conditions: always },
        {
          id: 'stickers',
          product_id: 117,
          label: 'Add a sticker pack',
          description: 'Five stickers for your laptop.',
          conditions: { match: 'all', conditions: [{ type: 'cart_subtotal', operator: 'gte', value: 2000 }] }
        }
      ]
    },
    bundles: {
      enabled: true,
      bundles: [{
        id: 'head-to-toe',
        title: 'Head to toe',
        description: 'A hat and a belt, 15% off both.',
        discount_percent: 15,
        slots: [{ label: 'Pick a hat', product_ids: [101, 103] }, { label: 'Pick a belt', product_ids: [102] }]
      }]
    },
    spotlight: {
      enabled: true,
      product_id: 104,
      title: 'Ready for the sun?',
      text: 'Polarised sunglasses to finish the look.',
      conditions: always
    }
  }
}

/**
 * Stores the demo settings when the drawer's settings were never saved: a merchant's own settings, and a restart, keep
 * theirs. Returns whether it stored them.
 */
export async function seedDemoSettings (storage: Storage, edition: 'free' | 'pro'): Promise<boolean> {
  if (await storage.getSettings() !== null) return false
  return await storage.saveSettings(demoSettings(edition), 0) !== null
}
