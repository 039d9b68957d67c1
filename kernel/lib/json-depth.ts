/**
 * The deepest nesting a JSON body may have. The deepest document the service takes (the settings, with condition
 * groups inside reward tiers) nests about a dozen levels; 32 leaves room for what a host adds, and bounds every
 * recursive walk (merge, copy, validation) far below the stack's size whatever a body holds.
 */
export const MAX_JSON_DEPTH = 32

/**
 * Whether a parsed JSON value nests deeper than `max` (arrays and objects each count a level). Iterative, with a stack
 * of its own, so a hostile body cannot overflow the call stack here either; it stops at the first branch too deep.
 */
export function nestsDeeperThan (value: unknown, max: number): boolean {
  const stack: Array<{ value: unknown, depth: number }> = [{ value, depth: 0 }]
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!
    if (current === null || typeof current !== 'object') continue
    if (depth + 1 > max) return true
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 })
    }
  }
  return false
}
