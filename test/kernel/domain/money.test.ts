import { test } from 'tap'
import { DEFAULT_CURRENCY, formatMoney, toMinorString } from '../../../kernel/domain/money.ts'
import { EUR_DE, USD } from './fixtures.ts'

test('formatMoney', async (t) => {
  t.equal(formatMoney(5000, USD), '$50.00')
  t.equal(formatMoney(0, USD), '$0.00')
  t.equal(formatMoney(5, USD), '$0.05')
  t.equal(formatMoney(99, USD), '$0.99')
  t.equal(formatMoney(123456789, USD), '$1,234,567.89', 'thousand separators')
  t.equal(formatMoney(-1250, USD), '-$12.50', 'minus before the prefix, as WooCommerce')
  t.equal(formatMoney(123456, EUR_DE), '1.234,56 €', 'suffix and European separators')
  const yen = { ...USD, code: 'JPY', symbol: '¥', prefix: '¥', minorUnit: 0 }
  t.equal(formatMoney(1500000, yen), '¥1,500,000', 'no minor unit, no decimal separator')
  const dinar = { ...USD, code: 'KWD', prefix: 'KD ', minorUnit: 3 }
  t.equal(formatMoney(1234, dinar), 'KD 1.234', 'three decimals')
  t.equal(formatMoney(1000, { ...USD, thousandSeparator: '' }), '$10.00')
  t.equal(formatMoney(100000, { ...USD, thousandSeparator: '' }), '$1000.00', 'empty thousand separator')
  t.same(DEFAULT_CURRENCY, USD, 'the default currency is US dollars')
})

test('toMinorString', async (t) => {
  t.equal(toMinorString(3900), '3900')
  t.equal(toMinorString(0), '0')
  t.equal(toMinorString(-0), '0', 'never "-0"')
  t.equal(toMinorString(-250), '-250')
  t.equal(toMinorString(12.6), '13', 'rounded to a whole number')
  t.throws(() => toMinorString(Number.NaN), RangeError)
  t.throws(() => toMinorString(Infinity), RangeError)
})
