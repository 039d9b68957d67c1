/**
 * The arithmetic and the file format of the drawer's analytics report, free of I/O: averages and rates of the figures
 * storage counted, amounts written as decimals, and CSV that a spreadsheet opens safely.
 */
import type { LineOrigin } from '../../kernel/domain/types.ts'

/** The drawer's controls that add lines (`CartLine.origin`), in the order reports list them. */
export const LINE_ORIGINS = ['recommendation', 'spotlight', 'addon', 'bundle'] as const satisfies readonly LineOrigin[]

export function isLineOrigin (value: string): value is LineOrigin {
  return (LINE_ORIGINS as readonly string[]).includes(value)
}

/** `total / count` in whole minor units, halves rounded up; 0 without anything counted. */
export function averageOf (total: bigint, count: number): bigint {
  if (count <= 0) return 0n
  const divisor = BigInt(count)
  return (total * 2n + divisor) / (divisor * 2n)
}

/** `part / whole`, 0 when the whole is 0. */
export function rateOf (part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole
}

/** An amount of minor units as a plain decimal in major units (`1250`, 2 → `12.50`; `7`, 0 → `7`), dot-separated. */
export function decimalAmount (minor: bigint, minorUnit: number): string {
  const negative = minor < 0n
  const digits = (negative ? -minor : minor).toString()
  if (minorUnit <= 0) return `${negative ? '-' : ''}${digits}`
  const padded = digits.padStart(minorUnit + 1, '0')
  return `${negative ? '-' : ''}${padded.slice(0, -minorUnit)}.${padded.slice(-minorUnit)}`
}

/** Characters a spreadsheet reads as the start of a formula when a cell begins with one (OWASP's list). */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * One CSV cell (RFC 4180): a text that a spreadsheet would take for a formula gets a leading `'` (so `=HYPERLINK(…)`
 * in a product's name stays text), and a cell holding a quote, comma or line break is quoted with its quotes doubled.
 * Numbers are written as they are.
 */
export function csvCell (value: string | number | bigint): string {
  if (typeof value !== 'string') return String(value)
  const text = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** Rows of cells as CSV: comma-separated, each row ended by CRLF (RFC 4180). */
export function csvTable (rows: ReadonlyArray<ReadonlyArray<string | number | bigint>>): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('')
}
