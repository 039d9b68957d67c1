/** Reading and writing a value at a path (`['drawer_config', 'colors', 'primary']`) of a JSON document. */
export type Json = Record<string, unknown>
export type Path = ReadonlyArray<string | number>

export function isObject (value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function getAt (document: unknown, path: Path): unknown {
  let current = document
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string | number, unknown>)[part]
  }
  return current
}

/** Sets the value, creating the objects on the way. */
export function setAt (document: Json, path: Path, value: unknown): void {
  let current: Record<string | number, unknown> = document
  path.forEach((part, index) => {
    if (index === path.length - 1) {
      current[part] = value
      return
    }
    const next = current[part]
    if (next === null || typeof next !== 'object') current[part] = typeof path[index + 1] === 'number' ? [] : {}
    current = current[part] as Record<string | number, unknown>
  })
}

export const pathKey = (path: Path): string => path.join('.')

export function clone<T> (value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}
