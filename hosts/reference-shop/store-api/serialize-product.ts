import { productPermalink } from '../../../kernel/domain/product-url.ts'
import {
  backorderNotice, DEFAULT_BACKORDER_NOTICE, effectivePrice, GUEST_VIEWER, isInStock, isOnBackorder, isOnSale, isPurchasable, lowStockRemaining
} from '../../../kernel/domain/catalog.ts'
import { escapeHtml } from '../../../kernel/domain/html.ts'
import { formatMoney } from '../../../kernel/domain/money.ts'
import { quantityLimits } from '../../../kernel/domain/quantity.ts'
import type { Currency, Product, ProductDimensions, ProductImage } from '../../../kernel/domain/types.ts'
import { amount, currencyBlock } from './money.ts'

export interface SerializeContext {
  currency: Currency
  /** The site's home URL without a trailing slash. */
  homeUrl: string
}

/** The storefront URL of a product (WooCommerce's permalink, kernel/domain/product-url.ts). */
export const permalink = productPermalink

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

/** What a product's answer needs besides the product: its parent (variations) and its variations (variable). */
export interface ProductRelatives {
  /** The variable product a variation belongs to. */
  parent?: Product | null
  /** A variable product's published variations, in its `variationIds` order. */
  variations?: readonly Product[]
  /** The Store API's URL without a trailing slash (`…/wp-json/wc/store/v1`): with it the answer carries `_links`. */
  storeApiUrl?: string
}

/** WooCommerce's default units: the platform has no setting for them. */
const WEIGHT_UNIT = 'kg'
const DIMENSION_UNIT = 'cm'

function priceSpan (minor: number, currency: Currency): string {
  return `<span class="woocommerce-Price-amount amount"><bdi>${escapeHtml(formatMoney(minor, currency))}</bdi></span>`
}

/** The lowest and highest prices charged for a variable product's variations that have one. */
function variationPriceRange (variations: readonly Product[]): { min: Product, max: Product } | null {
  const priced = variations.filter((variation) => effectivePrice(variation) !== null)
  if (priced.length === 0) return null
  const byPrice = [...priced].sort((a, b) => (effectivePrice(a) ?? 0) - (effectivePrice(b) ?? 0))
  return { min: byPrice[0]!, max: byPrice[byPrice.length - 1]! }
}

/** `price_html`: the price, the regular one struck out when on sale, or `min – max` for a variable product. */
function priceHtml (product: Product, variations: readonly Product[], currency: Currency): string {
  if (product.type === 'variable') {
    const range = variationPriceRange(variations)
    if (range === null) return ''
    const min = effectivePrice(range.min)!
    const max = effectivePrice(range.max)!
    if (min !== max) return `${priceSpan(min, currency)} &ndash; ${priceSpan(max, currency)}`
    return priceHtml(range.min, [], currency)
  }
  const price = effectivePrice(product)
  if (price === null) return ''
  if (!isOnSale(product)) return priceSpan(price, currency)
  const regular = formatMoney(product.regularPrice!, currency)
  const sale = formatMoney(price, currency)
  return `<del aria-hidden="true">${priceSpan(product.regularPrice!, currency)}</del> ` +
    `<span class="screen-reader-text">Original price was: ${escapeHtml(regular)}.</span>` +
    `<ins aria-hidden="true">${priceSpan(price, currency)}</ins>` +
    `<span class="screen-reader-text">Current price is: ${escapeHtml(sale)}.</span>`
}

/** The `prices` of a variable product: its cheapest variation's, with the range when the prices differ. */
function variablePrices (variations: readonly Product[], currency: Currency) {
  const range = variationPriceRange(variations)
  if (range === null) return serializePrices({ ...variations[0]!, regularPrice: null, salePrice: null }, currency)
  const prices = serializePrices(range.min, currency)
  const min = effectivePrice(range.min)!
  const max = effectivePrice(range.max)!
  return { ...prices, price_range: min === max ? null : { min_amount: amount(min), max_amount: amount(max) } }
}

/** `stock_availability`, as WooCommerce's product page words it. */
function stockAvailability (product: Product, variations: readonly Product[]): { text: string, class: string } {
  const inStock = product.type === 'variable' ? variations.some(isInStock) : isInStock(product)
  if (!inStock) return { text: 'Out of stock', class: 'out-of-stock' }
  if (product.type === 'variable') return { text: '', class: 'in-stock' }
  if (isOnBackorder(product, 1)) {
    const silent = product.manageStock && product.backorders === 'yes'
    return { text: silent ? '' : (backorderNotice(product, 1) || DEFAULT_BACKORDER_NOTICE), class: 'available-on-backorder' }
  }
  if (product.manageStock && product.stockQuantity !== null) {
    const canBackorder = product.backorders === 'notify' ? ' (can be backordered)' : ''
    return { text: `${Math.max(0, product.stockQuantity)} in stock${canBackorder}`, class: 'in-stock' }
  }
  return { text: '', class: 'in-stock' }
}

function formattedWeight (weight: string): string {
  const value = Number.parseFloat(weight)
  return Number.isFinite(value) && value !== 0 ? `${weight.trim()} ${WEIGHT_UNIT}` : 'N/A'
}

function formattedDimensions ({ length, width, height }: ProductDimensions): string {
  const given = [length, width, height].map((value) => value.trim()).filter((value) => value !== '')
  return given.length > 0 ? `${given.join(' × ')} ${DIMENSION_UNIT}` : 'N/A'
}

/** The text of a variation's attributes, `Color: blue, Size: small` ("any" values left out). */
function variationText (product: Product, parent: Product | null | undefined): string {
  if (product.type !== 'variation') return ''
  const labels = new Map((parent?.attributes ?? []).map((attribute) => [attribute.name, attribute.label]))
  return Object.entries(product.variationAttributes)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${labels.get(name) ?? name}: ${value}`)
    .join(', ')
}

function links (product: Product, storeApiUrl: string) {
  const collection = `${storeApiUrl}/products`
  return {
    self: [{ href: `${collection}/${product.id}` }],
    collection: [{ href: collection }],
    ...(product.type === 'variation' && product.parentId > 0 ? { up: [{ href: `${collection}/${product.parentId}` }] } : {}),
    ...(product.upsellIds.length > 0 ? { upsells: [{ href: `${collection}?include=${product.upsellIds.join(',')}`, embeddable: true }] } : {}),
    ...(product.crossSellIds.length > 0 ? { cross_sells: [{ href: `${collection}?include=${product.crossSellIds.join(',')}`, embeddable: true }] } : {}),
    related: [{ href: `${collection}?related=${product.id}&per_page=10`, embeddable: true }]
  }
}

/**
 * A product of `GET wc/store/v1/products` (and the cart's cross-sells), in the Store API's shape and WooCommerce's
 * key order. A variation needs its parent and a variable product its published variations to answer in full;
 * without them a variation is not purchasable and a variable product has no price.
 */
export function serializeProduct (product: Product, { currency, homeUrl }: SerializeContext, relatives: ProductRelatives = {}) {
  const limits = quantityLimits(product, {})
  const { parent = null, variations = [], storeApiUrl } = relatives
  const pageOf = product.type === 'variation' && parent !== null ? parent : product
  const productPage = permalink(product, pageOf, homeUrl)
  const purchasable = product.type === 'variation' ? isPurchasable(product, GUEST_VIEWER, parent) : isPurchasable(product)
  const variable = product.type === 'variable'
  const buyable = purchasable && isInStock(product)
  const quotedName = `“${product.name}”`
  const attributeLabels = new Map(product.attributes.map((attribute) => [attribute.name, attribute.label]))
  const dimensions = { length: product.dimensions?.length ?? '', width: product.dimensions?.width ?? '', height: product.dimensions?.height ?? '' }
  const weight = product.weight ?? ''
  return {
    id: product.id,
    name: product.name,
    slug: product.slug,
    parent: product.parentId,
    type: product.type,
    variation: variationText(product, parent),
    permalink: productPage,
    sku: product.sku,
    short_description: product.shortDescription,
    description: product.description,
    on_sale: variable ? variations.some(isOnSale) : isOnSale(product),
    prices: variable && variations.length > 0 ? variablePrices(variations, currency) : serializePrices(product, currency),
    price_html: priceHtml(product, variations, currency),
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
    brands: [],
    attributes: product.attributes.map((attribute, index) => ({
      id: index + 1,
      name: attribute.label,
      taxonomy: attribute.name,
      has_variations: variable,
      terms: attribute.options.map((option, optionIndex) => ({ id: optionIndex + 1, name: option, slug: option }))
    })),
    variations: variable
      ? (relatives.variations === undefined
          ? product.variationIds.map((id) => ({ id, attributes: [] }))
          : variations.map((variation) => ({
            id: variation.id,
            attributes: product.attributes.map(({ name }) => ({
              name: attributeLabels.get(name) ?? name,
              value: variation.variationAttributes[name] || null
            }))
          })))
      : [],
    grouped_products: [],
    has_options: variable,
    is_purchasable: purchasable,
    is_in_stock: variable && relatives.variations !== undefined ? variations.some(isInStock) : isInStock(product),
    is_on_backorder: isOnBackorder(product, 1),
    low_stock_remaining: lowStockRemaining(product),
    stock_availability: stockAvailability(product, variable && relatives.variations === undefined ? [product] : variations),
    sold_individually: product.soldIndividually,
    weight,
    formatted_weight: formattedWeight(weight),
    dimensions,
    formatted_dimensions: formattedDimensions(dimensions),
    add_to_cart: {
      text: variable ? 'Select options' : buyable ? 'Add to cart' : 'Read more',
      description: variable ? `Select options for ${quotedName}` : buyable ? `Add to cart: ${quotedName}` : `Read more about ${quotedName}`,
      url: variable || !buyable ? productPage : `?add-to-cart=${product.id}`,
      single_text: 'Add to cart',
      minimum: limits.minimum,
      maximum: limits.maximum,
      multiple_of: limits.multipleOf
    },
    extensions: {},
    ...(storeApiUrl === undefined ? {} : { _links: links(product, storeApiUrl) })
  }
}
