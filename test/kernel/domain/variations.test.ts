import { test } from 'tap'
import { findVariation, normaliseVariationChoice } from '../../../kernel/domain/catalog.ts'
import { variationChoice } from '../../../kernel/domain/variations.ts'
import { makeProduct, makeVariableParent, makeVariation } from './fixtures.ts'

const parent = makeVariableParent()
const redS = makeVariation({ id: 11, variationAttributes: { pa_color: 'Red', pa_size: 'S' } })
const blueAny = makeVariation({ id: 12, name: 'T-shirt - Blue', variationAttributes: { attribute_pa_color: 'Blue', pa_size: '' } })
const anyM = makeVariation({ id: 13, name: 'T-shirt - M', variationAttributes: { pa_color: '', pa_size: 'M' } })
const variations = [redS, blueAny, anyM]

function idOf (result: ReturnType<typeof findVariation>): number | string {
  return result.ok ? result.value.id : result.error.reason
}

test('findVariation matches every non-empty attribute', async (t) => {
  t.equal(idOf(findVariation(parent, variations, { pa_color: 'Red', pa_size: 'S' })), 11, 'exact match')
  t.equal(idOf(findVariation(parent, variations, { attribute_pa_color: 'Red', attribute_pa_size: 'S' })), 11, 'attribute_ prefix')
  t.equal(idOf(findVariation(parent, variations, { ATTRIBUTE_PA_COLOR: 'red', Pa_Size: 's' })), 11, 'names and values case-insensitive')
  t.equal(idOf(findVariation(parent, variations, { Color: 'Red', Size: 'S' })), 11, 'attribute labels accepted')
  t.equal(idOf(findVariation(parent, variations, { pa_color: 'Blue', pa_size: 'S' })), 12, '"any" size matches S')
  t.equal(idOf(findVariation(parent, variations, { pa_color: 'Blue', pa_size: 'M' })), 12, 'Blue/M: both 12 and 13 match with one fixed attribute; the first wins')
  t.equal(idOf(findVariation(parent, variations, { pa_color: 'Red', pa_size: 'M' })), 13, '"any" colour matches Red')
  t.equal(idOf(findVariation(parent, [anyM, makeVariation({ id: 14, variationAttributes: { pa_color: 'Red', pa_size: 'M' } })], { pa_color: 'Red', pa_size: 'M' })), 14, 'the most specific match wins over an earlier "any"')
})

test('findVariation errors', async (t) => {
  const missing = findVariation(parent, variations, { pa_color: 'Red' })
  t.equal(missing.ok, false)
  if (!missing.ok) {
    t.equal(missing.error.reason, 'variation_attribute_missing')
    t.same(missing.error.data, { attribute: 'pa_size' })
    t.equal(missing.error.message, 'Missing variation data for variable product. Size is a required field.')
  }
  const empty = findVariation(parent, variations, { pa_color: 'Red', pa_size: '  ' })
  t.equal(!empty.ok && empty.error.reason, 'variation_attribute_missing', 'blank value counts as missing')
  const invalid = findVariation(parent, variations, { pa_color: 'Green', pa_size: 'S' })
  t.equal(invalid.ok, false)
  if (!invalid.ok) {
    t.equal(invalid.error.reason, 'variation_attribute_invalid')
    t.same(invalid.error.data, { attribute: 'pa_color', value: 'Green' })
    t.equal(invalid.error.message, 'Invalid value posted for Color. Allowed values: Red, Blue')
  }
  const noMatch = findVariation(parent, [redS], { pa_color: 'Blue', pa_size: 'M' })
  t.equal(!noMatch.ok && noMatch.error.reason, 'variation_not_found', 'valid values, no variation')
  const foreign = findVariation(parent, [makeVariation({ id: 20, parentId: 99 })], { pa_color: 'Red', pa_size: 'S' })
  t.equal(!foreign.ok && foreign.error.reason, 'variation_not_found', 'variations of another parent are ignored')
  const simple = findVariation(makeProduct(), variations, {})
  t.equal(!simple.ok && simple.error.reason, 'product_not_purchasable', 'parent is not variable')
})

test('normaliseVariationChoice canonicalises keys and values', async (t) => {
  t.same(normaliseVariationChoice(parent, { attribute_pa_color: ' blue ', SIZE: 'm', other: 'x' }),
    { ok: true, value: { pa_color: 'Blue', pa_size: 'M' } })
  const free = makeVariableParent({ attributes: [{ name: 'engraving', label: '', options: [] }] })
  t.same(normaliseVariationChoice(free, { engraving: 'Hello' }), { ok: true, value: { engraving: 'Hello' } }, 'no options: any text')
  const r = normaliseVariationChoice(free, {})
  t.equal(!r.ok && r.error.message, 'Missing variation data for variable product. engraving is a required field.', 'name used when no label')
})

test('variationChoice: a line of a variation carries its own values and the choice for its open ones', async (t) => {
  t.same(variationChoice(parent, redS, {}), { ok: true, value: { pa_color: 'Red', pa_size: 'S' } }, 'a fixed variation needs no choice')
  t.same(variationChoice(parent, redS, { attribute_pa_color: 'red' }), { ok: true, value: { pa_color: 'Red', pa_size: 'S' } },
    'a matching choice under the attribute_ prefix, in another case')
  const contradicts = variationChoice(parent, redS, { pa_color: 'Blue' })
  t.equal(!contradicts.ok && contradicts.error.reason, 'variation_attribute_invalid', 'a choice against the variation is refused')
  t.equal(!contradicts.ok && contradicts.error.message, 'Invalid value posted for Color. Allowed values: Red')

  t.same(variationChoice(parent, blueAny, { Size: 'm' }), { ok: true, value: { pa_color: 'Blue', pa_size: 'M' } },
    'the open size is taken from the choice (by label), the colour from the variation (stored under attribute_pa_color)')
  const missing = variationChoice(parent, blueAny, {})
  t.equal(!missing.ok && missing.error.reason, 'variation_attribute_missing', 'an open attribute needs a choice')
  const wrong = variationChoice(parent, blueAny, { pa_size: 'XXL' })
  t.equal(!wrong.ok && wrong.error.reason, 'variation_attribute_invalid', 'and a valid one')

  const other = variationChoice(makeVariableParent({ id: 99 }), redS, {})
  t.equal(!other.ok && other.error.reason, 'product_not_purchasable', 'a variation of another parent')
})
