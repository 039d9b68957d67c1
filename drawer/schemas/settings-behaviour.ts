import { Type, type Static } from 'typebox'

/**
 * The drawer's behaviours: the settings' `behaviour` section, and the launcher's look and where it hides
 * (part of `launcher`). Every default keeps the drawer as it was before these settings, except the undo after a
 * remove, which is on for a few seconds.
 */

/** An address the drawer links to: empty (the platform's own page), an http(s) URL, or a path on this site (`/…`, not `//…`). */
const Link = (description: string) => Type.String({
  maxLength: 500,
  pattern: '^(?:https?://[^\\s/?#\\\\]+[^\\s\\\\]*|/(?![/\\\\])[^\\s\\\\]*)?$',
  default: '',
  description: `${description} An \`http(s)\` URL or a path on this site starting with \`/\`; empty: the platform's own page.`
})

export const BEHAVIOUR_UNDO_SECONDS = { minimum: 0, maximum: 30 } as const

export const BehaviourSchema = Type.Object({
  open_on_add: Type.Boolean({ default: true, description: 'Open the drawer when the shopper adds a product on the page; off: the launcher\'s count changes and the change is announced, the drawer stays closed.' }),
  undo_seconds: Type.Integer({ ...BEHAVIOUR_UNDO_SECONDS, default: 5, description: 'After a remove, how long the drawer offers to undo it (the line comes back with its quantity); 0: no undo.' }),
  clear_cart: Type.Boolean({ default: false, description: 'A button that empties the cart, after a confirmation (`POST svc/v1/cart/remove-items` with every removable line).' }),
  checkout_url: Link('Where the Checkout button goes.'),
  cart_link: Type.Boolean({ default: false, description: 'A link to the cart page in the drawer\'s footer.' }),
  cart_url: Link('Where the cart link goes.'),
  empty_state: Type.Object({
    recommendations: Type.Boolean({ default: true, description: 'Show recommendations in the empty drawer (from the recommendations\' sources that need no cart: manual, best sellers, or a rule\'s).' }),
    continue_shopping: Type.Boolean({ default: false, description: 'A "Continue shopping" link in the empty drawer.' }),
    continue_url: Link('Where "Continue shopping" goes; empty: the shop\'s home page.')
  }, { additionalProperties: false, description: 'What the drawer shows while the cart is empty.' })
}, { additionalProperties: false, title: 'SvcBehaviour', description: 'How the drawer behaves: opening on add, undo, clearing the cart, its links and the empty cart.' })
export type BehaviourSettings = Static<typeof BehaviourSchema>

export const LAUNCHER_ICONS = ['bag', 'cart', 'basket'] as const
export const LAUNCHER_SHAPES = ['pill', 'circle', 'square'] as const
export const DEVICE_CLASSES = ['mobile', 'tablet', 'desktop'] as const
export const LAUNCHER_SIZE = { minimum: 44, maximum: 96 } as const

/** The launcher's look and where it hides (properties of `launcher`, after `show_total`). */
export const LauncherLookProperties = {
  hide_on_paths: Type.Array(Type.String({ minLength: 1, maxLength: 200, pattern: '^/[^\\s*?#\\\\]*\\*?$' }), {
    default: [],
    maxItems: 20,
    uniqueItems: true,
    description: 'Pages without the launcher: a path (`/about/`, exactly that page) or a path ending in `*` (`/account/*`: every page whose path starts so). The drawer still opens on add.'
  }),
  hide_on_devices: Type.Array(Type.Enum(DEVICE_CLASSES), {
    default: [],
    maxItems: DEVICE_CLASSES.length,
    uniqueItems: true,
    description: 'Device classes without the launcher, by viewport width: `mobile` up to 640 px, `tablet` above 640 and below 1024 px, `desktop` from 1024 px.'
  }),
  icon: Type.Enum(LAUNCHER_ICONS, { default: 'bag', description: 'The launcher\'s icon.' }),
  shape: Type.Enum(LAUNCHER_SHAPES, { default: 'pill', description: '`pill`: rounded ends; `circle`: the icon with the count as a corner badge (no total); `square`: square corners.' }),
  size: Type.Integer({ ...LAUNCHER_SIZE, default: 44, description: 'The launcher\'s height in pixels (a circle\'s diameter).' })
}
