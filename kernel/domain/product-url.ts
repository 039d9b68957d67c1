import type { Product } from './types.ts'

/**
 * WooCommerce's permalink of a product: `{homeUrl}/product/{slug}/`; a variation's is its parent's page with the
 * chosen attributes as `attribute_…` query parameters, in the parent's attribute order.
 */
export function productPermalink (product: Product, parent: Product, homeUrl: string, variation: Record<string, string> = {}): string {
  const base = `${homeUrl}/product/${encodeURIComponent(parent.slug)}/`
  const query = new URLSearchParams()
  if (product.type === 'variation') {
    const chosen = { ...product.variationAttributes, ...variation }
    // Stored attribute maps lose their order (jsonb sorts keys): follow the parent's attribute order.
    for (const { name } of parent.attributes) {
      const value = chosen[name]
      if (value) query.set(`attribute_${name}`, value)
    }
  }
  const search = query.toString()
  return search ? `${base}?${search}` : base
}
