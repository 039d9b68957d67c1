export const DAY_MS = 86_400_000
const DAY = /^\d{4}-\d{2}-\d{2}$/

/** The first millisecond of a UTC day given as `YYYY-MM-DD`; a RangeError naming `name` for anything else. */
export function dayStart (day: string, name: string): number {
  const time = DAY.test(day) ? Date.parse(`${day}T00:00:00.000Z`) : Number.NaN
  if (Number.isNaN(time)) throw new RangeError(`${name} must be a day (YYYY-MM-DD), got ${JSON.stringify(day)}`)
  return time
}

/** An ISO instant in milliseconds; a RangeError naming `name` for anything else. */
export function instant (value: string, name: string): number {
  const time = Date.parse(value)
  if (Number.isNaN(time)) throw new RangeError(`${name} must be an ISO instant, got ${JSON.stringify(value)}`)
  return time
}
