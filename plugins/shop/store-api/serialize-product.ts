import { effectivePrice, isInStock, isOnBackorder, isOnSale, isPurchasable, lowStockRemaining } from '../../../domain/catalog.ts'
import { quantityLimits } from '../../../domain/quantity.ts'
import type { Currency, Product, ProductImage } from '../../../domain/types.ts'
import { amount, currencyBlock } from './money.ts'

export interface SerializeContext {
  currency: Currency
  /** The site's home URL without a trailing slash. */
  homeUrl: string
}

export function permalink (product: Product, parent: Product, homeUrl: string, variation: Record<string, string> = {}): string {
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

export function serializeImages (images: readonly ProductImage[]) {
  return images.map((image) => ({
    id: image.id,
    src: image.src,
    thumbnail: image.thumbnail,
    srcset: '',
    sizes: '',
    name: image.name,
    alt: image.alt
  }))
}

function rawPrice (minor: number | null, currency: Currency): string {
  if (minor === null) return ''
  return String(minor * 10 ** (6 - currency.minorUnit))
}

/** The `prices` object of a Store API product or cart item. */
export function serializePrices (product: Product, currency: Currency) {
  const price = effectivePrice(product)
  const sale = isOnSale(product) ? product.salePrice : price
  return {
    price: price === null ? '' : amount(price),
    regular_price: product.regularPrice === null ? '' : amount(product.regularPrice),
    sale_price: sale === null ? '' : amount(sale),
    price_range: null,
    ...currencyBlock(currency),
    raw_prices: {
      precision: 6,
      price: rawPrice(price, currency),
      regular_price: rawPrice(product.regularPrice, currency),
      sale_price: rawPrice(sale, currency)
    }
  }
}

/** A product of `GET wc/store/v1/products`, in the Store API's shape. */
export function serializeProduct (product: Product, { currency, homeUrl }: SerializeContext) {
  const limits = quantityLimits(product, {})
  return {
    id: product.id,
    name: product.name,
    slug: product.slug,
    parent: product.parentId,
    type: product.type,
    variation: '',
    permalink: permalink(product, product, homeUrl),
    sku: product.sku,
    short_description: product.shortDescription,
    description: product.description,
    on_sale: isOnSale(product),
    prices: serializePrices(product, currency),
    average_rating: '0',
    review_count: 0,
    images: serializeImages(product.images),
    categories: product.categories.map((category) => ({
      id: category.id,
      name: category.name,
      slug: category.slug,
      link: `${homeUrl}/product-category/${encodeURIComponent(category.slug)}/`
    })),
    tags: [],
    attributes: product.attributes.map((attribute, index) => ({
      id: index + 1,
      name: attribute.label,
      taxonomy: attribute.name,
      has_variations: product.type === 'variable',
      terms: attribute.options.map((option, optionIndex) => ({ id: optionIndex + 1, name: option, slug: option }))
    })),
    variations: product.variationIds.map((id) => ({ id, attributes: [] })),
    has_options: product.type === 'variable',
    is_purchasable: isPurchasable(product),
    is_in_stock: isInStock(product),
    is_on_backorder: isOnBackorder(product, 1),
    low_stock_remaining: lowStockRemaining(product),
    sold_individually: product.soldIndividually,
    add_to_cart: {
      text: product.type === 'variable' ? 'Select options' : 'Add to cart',
      description: `Add to cart: “${product.name}”`,
      url: product.type === 'variable' ? permalink(product, product, homeUrl) : `?add-to-cart=${product.id}`,
      minimum: limits.minimum,
      maximum: limits.maximum,
      multiple_of: limits.multipleOf
    },
    extensions: {}
  }
}
