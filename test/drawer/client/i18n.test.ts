import { test } from 'tap'
import { CATALOGS } from '../../../kernel/i18n/catalogs.ts'
import { compileCatalog, compileMessage, overrideProblem } from '../../../kernel/i18n/compile.ts'
import { resolveLocale, supportedLocale, type Locale } from '../../../kernel/i18n/locales.ts'
import { I18n } from '../../../drawer/client/i18n.ts'
import type { Currency } from '../../../drawer/client/types.ts'

/** The drawer's formatter (drawer/client/i18n.ts) runs on Node as in the browser: it needs only Intl. */
const compiled = (locale: Locale) => compileCatalog(CATALOGS[locale], locale)
const EN = compiled('en')
const i18nFor = (locale: Locale, tag: string = locale, texts = {}) => new I18n(locale, tag, texts, compiled(locale), EN)
const FSI = '\u2068'
const PDI = '\u2069'
const plain = (text: string) => text.replace(/[\u2068\u2069]/g, '')

const USD: Currency = {
  currency_code: 'USD',
  currency_symbol: '$',
  currency_minor_unit: 2,
  currency_decimal_separator: '.',
  currency_thousand_separator: ',',
  currency_prefix: '$',
  currency_suffix: ''
} as Currency
const JPY: Currency = { ...USD, currency_code: 'JPY', currency_symbol: '¥', currency_minor_unit: 0, currency_prefix: '¥' } as Currency

test('plural forms in each locale', async (t) => {
  const counts = (locale: Locale, numbers: number[]) => numbers.map((count) => plain(i18nFor(locale).t('count', { count })))
  t.same(counts('en', [0, 1, 2, 1000]), ['(0 items)', '(1 item)', '(2 items)', '(1,000 items)'])
  t.same(counts('de', [1, 2, 1000]), ['(1 Artikel)', '(2 Artikel)', '(1.000 Artikel)'])
  t.same(counts('fr', [0, 1, 2, 1000000]), ['(0 article)', '(1 article)', '(2 articles)', '(1\u202f000\u202f000 d’articles)'], 'French: 0 and 1 singular, a million takes "de"')
  t.same(counts('es', [1, 2, 1000000]), ['(1 artículo)', '(2 artículos)', '(1.000.000 de artículos)'])
  t.same(counts('ja', [1, 2, 10]), ['（1点）', '（2点）', '（10点）'], 'Japanese: one form')
  t.same(counts('ar', [0, 1, 2, 3, 11, 100]), [
    '(لا منتجات)', '(منتج واحد)', '(منتجان)', '(3 منتجات)', '(11 منتجًا)', '(100 منتج)'
  ], 'Arabic: zero, one, two, few, many and other')
  t.equal(plain(i18nFor('ar').t('errorBusyWait', { seconds: 2 })), 'طلبات كثيرة جدًا. يُرجى الانتظار ثانيتين ثم المحاولة مرة أخرى.', 'the dual of seconds')
})

test('placeholders, numbers and money', async (t) => {
  const en = i18nFor('en')
  t.equal(en.t('added', { name: 'Beanie' }), 'Beanie added to the cart.')
  t.equal(en.t('quantityChanged', { name: 'Beanie', quantity: 1200 }), 'Quantity of Beanie changed to 1,200.')
  t.equal(en.t('bundleSave', { percent: 0.15 }), 'Save 15%')
  t.equal(en.money('1080', USD), '$10.80')
  t.equal(en.money(-1080, USD), '\u2212$10.80', 'a negative amount with the minus sign, before the amount')
  t.equal(i18nFor('de').money('1080', USD), '10,80\u00a0$', 'German writes the amount first')
  t.match(i18nFor('de', 'de-CH').money('108000', USD), /^\$\s1['’]080\.00$/, 'in the page\'s own region (de-CH)')
  t.equal(i18nFor('ja').money(1080, JPY), '￥1,080', 'a currency without minor units')
  t.match(i18nFor('fr').t('bundleSave', { percent: 0.15 }), /^15[\u00a0\u202f]% d’économie$/)
  t.equal(en.t('added'), ' added to the cart.', 'a missing value is empty, never "undefined"')
})

test('right to left: every value is isolated', async (t) => {
  const ar = i18nFor('ar')
  t.equal(ar.dir, 'rtl')
  t.equal(ar.t('count', { count: 2 }), '(منتجان)')
  t.equal(ar.t('count', { count: 3 }), `(${FSI}3${PDI} منتجات)`, '"3" stays before its word')
  const chip = ar.t('couponChip', { label: 'Coupon: save10', amount: ar.money(-1080, USD) })
  t.equal(chip, `${FSI}Coupon: save10${PDI} (${FSI}${ar.money(-1080, USD)}${PDI})`)
  t.match(ar.money(-1080, USD), /\u2212.*10\.80/, 'the minus sign stays with the amount, before it')
  t.equal(i18nFor('en').dir, 'ltr')
  t.equal(i18nFor('en').t('count', { count: 3 }), '(3 items)', 'nothing added in a left-to-right locale')
})

test('overrides win over the catalog, in their locale only; English fills what a catalog lacks', async (t) => {
  const texts = { title: compileMessage('Dein Korb', 'de'), count: compileMessage('({count, plural, one {ein Teil} other {# Teile}})', 'de') }
  const de = i18nFor('de', 'de', texts)
  t.equal(de.t('title'), 'Dein Korb')
  t.equal(de.t('count', { count: 1 }), '(ein Teil)')
  t.equal(de.t('count', { count: 4 }), '(4 Teile)')
  t.equal(de.t('checkout'), 'Zur Kasse', 'the rest from the catalog')
  t.equal(i18nFor('fr').t('title'), 'Votre panier', 'another locale keeps its own')
  const partial = new I18n('de', 'de', texts, { checkout: 'Zur Kasse' }, EN)
  t.equal(partial.t('empty'), 'Your cart is empty.', 'a message missing from a catalog falls back to English')
})

test('the fallback chain: the page\'s language, its base language, the shop\'s locale, English', async (t) => {
  t.equal(resolveLocale('ar', 'de'), 'ar')
  t.equal(resolveLocale('fr-CA', 'de'), 'fr', 'the base language of a regional tag')
  t.equal(resolveLocale('ES_mx', 'de'), 'es')
  t.equal(resolveLocale('pt-BR', 'ja'), 'ja', 'an unsupported page language: the shop\'s')
  t.equal(resolveLocale('', 'ja'), 'ja', 'no page language: the shop\'s')
  t.equal(resolveLocale('pt', 'xx'), 'en', 'then English')
  t.equal(resolveLocale(null, undefined), 'en')
  t.equal(supportedLocale('zz'), null)
})

test('an override must be ICU with the original\'s placeholders', async (t) => {
  const original = CATALOGS.en.count
  t.equal(overrideProblem('({count, plural, one {# thing} other {# things}})', original, 'en'), null)
  t.match(overrideProblem('({n, plural, one {# thing} other {# things}})', original, 'en'), /must use \{count\}; has \{n\}/)
  t.match(overrideProblem('(items)', original, 'en'), /must use \{count\}/)
  t.match(overrideProblem('({count, plural, one {# thing}})', original, 'en'), /no "other" case/)
  t.match(overrideProblem('({count, plural, few {# x} other {# y}})', original, 'en'), /few is not valid/, 'a plural key English does not have')
  t.equal(overrideProblem('({count, plural, few {# x} other {# y}})', CATALOGS.ar.count, 'ar'), null, 'Arabic has it')
  t.match(overrideProblem('Your cart {', CATALOGS.en.title, 'en'), /not a valid ICU message/)
  t.match(overrideProblem('Cart {name}', CATALOGS.en.title, 'en'), /has \{name\}, which this text does not have \(it has none\)/)
  t.equal(overrideProblem("Your '{cart}'", CATALOGS.en.title, 'en'), null, 'quoted braces are text')
  t.match(overrideProblem('{total, date}', CATALOGS.en.title, 'en'), /not a valid ICU message/, 'only number formats')
})
