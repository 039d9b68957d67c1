import { effectivePrice, isInStock } from '../../../kernel/domain/catalog.ts'
import { escapeHtml } from '../../../kernel/domain/html.ts'
import { jsonForScript } from '../../../kernel/domain/json-script.ts'
import { formatMoney } from '../../../kernel/domain/money.ts'
import type { Currency, Product } from '../../../kernel/domain/types.ts'

function money (amount: number | null, currency: Currency): string {
  return amount === null ? '' : formatMoney(amount, currency)
}

/** A variable product's form: one select per attribute, the variation chosen in the page from the data below it. */
function variableForm (product: Product, variations: readonly Product[], currency: Currency): string {
  const selects = product.attributes.map((attribute) => {
    const id = `attribute-${attribute.name}`
    const options = attribute.options.map((option) => `<option value="${escapeHtml(option)}">${escapeHtml(option)}</option>`).join('')
    return `<label for="${escapeHtml(id)}">${escapeHtml(attribute.label)}
<select id="${escapeHtml(id)}" name="attribute_${escapeHtml(attribute.name)}" required><option value="">Choose an option</option>${options}</select></label>`
  }).join('\n')
  const data = variations.map((variation) => ({
    id: variation.id,
    attributes: variation.variationAttributes,
    price: money(effectivePrice(variation), currency),
    inStock: isInStock(variation) && effectivePrice(variation) !== null
  }))
  return `<form class="cart variations_form" data-product-id="${product.id}">
${selects}
<p id="variation-price" class="price" aria-live="polite"></p>
<label>Quantity <input name="quantity" type="number" min="1" value="1" inputmode="numeric"></label>
<input type="hidden" name="product_id" value="${product.id}">
<input type="hidden" name="variation_id" value="">
<button type="submit" disabled>Add to cart</button>
</form>
<script type="application/json" id="product-variations">${jsonForScript(data)}</script>`
}

function simpleForm (product: Product, currency: Currency): string {
  const price = effectivePrice(product)
  if (price === null || !isInStock(product)) {
    return `<p class="price">${escapeHtml(money(price, currency))}</p><p class="unavailable">${price === null ? 'Not for sale yet' : 'Out of stock'}</p>`
  }
  return `<p class="price">${escapeHtml(money(price, currency))}</p>
<form class="cart" data-product-id="${product.id}">
<label>Quantity <input name="quantity" type="number" min="1" value="1" inputmode="numeric"></label>
<input type="hidden" name="product_id" value="${product.id}">
<button type="submit">Add to cart</button>
</form>`
}

/** A product page's content: picture, name, descriptions and the add-to-cart form. */
export function renderProductPage (product: Product, variations: readonly Product[], currency: Currency): string {
  const image = product.images[0]
  return `<p><a href="/">← Back to the shop</a></p>
<article class="product-page">
${image ? `<img src="${escapeHtml(image.src)}" alt="${escapeHtml(image.alt)}" width="192" height="192">` : ''}
<h1>${escapeHtml(product.name)}</h1>
<p class="short-description">${escapeHtml(product.shortDescription)}</p>
${product.type === 'variable' ? variableForm(product, variations, currency) : simpleForm(product, currency)}
</article>`
}
