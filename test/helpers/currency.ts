/**
 * The demo shop's currency block as the Store API and `svc/v1` answer it (WooCommerce's `currency_*` fields), written
 * out here rather than imported from the app, like the other expected values of the tests.
 */
export const USD = {
  currency_code: 'USD',
  currency_symbol: '$',
  currency_minor_unit: 2,
  currency_decimal_separator: '.',
  currency_thousand_separator: ',',
  currency_prefix: '$',
  currency_suffix: ''
}
