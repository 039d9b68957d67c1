import { appendFileSync } from 'node:fs'

/**
 * The figures a reliability test measured (requests tried, faults injected, latencies, recovery times): printed as a
 * TAP comment, and appended as one JSON line to the file named by RELIABILITY_FIGURES when it is set.
 */
export function report (name: string, figures: Record<string, number | string>): void {
  const line = JSON.stringify({ name, ...figures })
  console.log(`# figures ${line}`)
  const file = process.env.RELIABILITY_FIGURES
  if (file !== undefined && file !== '') appendFileSync(file, `${line}\n`)
}
