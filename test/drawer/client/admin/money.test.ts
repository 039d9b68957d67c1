import { test } from 'tap'
import { amountHint, parseAmount, toAmount } from '../../../../drawer/client/admin/money.ts'
import { USD } from '../../../helpers/currency.ts'

/** Amounts on the settings screen: typed in the shop's currency, saved in its smallest unit (drawer/client/admin/money.ts). */

const EUR = { ...USD, currency_code: 'EUR', currency_symbol: '€', currency_decimal_separator: ',', currency_thousand_separator: '.', currency_prefix: '', currency_suffix: ' €' }
const JPY = { ...USD, currency_code: 'JPY', currency_symbol: '¥', currency_minor_unit: 0, currency_prefix: '¥' }

test('an amount shown for editing', async (t) => {
  t.equal(toAmount(5000, USD), '50.00')
  t.equal(toAmount(5, USD), '0.05')
  t.equal(toAmount(0, USD), '0.00')
  t.equal(toAmount(123456789, USD), '1234567.89', 'no thousands separator in a value to edit')
  t.equal(toAmount(5000, EUR), '50,00')
  t.equal(toAmount(5000, JPY), '5000')
  t.equal(amountHint(USD), 'Type the amount in USD, for example 50.00.')
})

test('an amount typed', async (t) => {
  for (const [typed, minor] of [['50', 5000], ['50.5', 5050], ['50.00', 5000], [' 49.99 ', 4999], ['$50', 5000], ['1,250.00', 125000], ['0', 0], ['.5', 50], ['50.', 5000]] as const) {
    t.equal(parseAmount(typed, USD), minor, `"${typed}" in USD`)
  }
  for (const typed of ['', 'fifty', '-5', '5.001', '5e3', '1.2.3', '.', '$']) t.equal(parseAmount(typed, USD), null, `"${typed}" is not an amount`)
  t.equal(parseAmount('1.250,5', EUR), 125050, 'the currency\'s own separators')
  t.equal(parseAmount('50 €', EUR), 5000)
  t.equal(parseAmount('5000', JPY), 5000)
  t.equal(parseAmount('50.5', JPY), null, 'no decimals in a currency without them')
})
