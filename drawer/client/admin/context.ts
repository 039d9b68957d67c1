import type { CurrencyBlock } from '../../../kernel/domain/money.ts'
import type { Locale } from '../../../kernel/i18n/locales.ts'
import type { Path } from './paths.ts'
import type { ProductDirectory } from './products.ts'

export interface ConditionTypeInfo {
  type: string
  label: string
  operators: string[]
  value_schema: Record<string, unknown>
}

/** What the form's controls need: the draft document, where to report, and the Pro pickers' data. */
export interface FormContext {
  get (path: Path): unknown
  /** A value changed (the form stays as it is). */
  set (path: Path, value: unknown): void
  /** A list changed shape: the value is set and the form drawn again, focus going to `focus` (a `data-path`). */
  restructure (path: Path, value: unknown, focus?: string): void
  /**
   * A value typed that cannot be sent as it is (an amount that is not one): its message next to the field, and no
   * save until it is fixed; null when it is fixed. `lang`: the message's language when it is not the screen's (the
   * ICU check of a shop's text writes English, as the server's does).
   */
  invalid (path: Path, message: string | null, lang?: string): void
  /** A control's place for its error messages. */
  field (path: Path, wrapper: HTMLElement, error: HTMLElement): void
  /** Pro: the product pickers' search; null in Free (ids are typed). */
  products: ProductDirectory | null
  conditionTypes: ConditionTypeInfo[]
  /** The shop's currency, for amounts of money. */
  currency: CurrencyBlock
  /** The language the live preview shows (the texts editor's choice; at first the shop's language). */
  previewLocale: { get (): Locale, set (locale: Locale): void }
}
