import { Value } from 'typebox/value'
import { CONDITION_TYPES } from './catalog.ts'
import type { Condition, ConditionContext, ConditionGroup } from './types.ts'

const MAX_DEPTH = 2
const MAX_CONDITIONS = 50

function isGroup (node: Condition | ConditionGroup): node is ConditionGroup {
  return 'match' in node
}

/** Whether a validated group holds for the context. An empty group holds (no condition to fail). */
export function evaluate (group: ConditionGroup, context: ConditionContext): boolean {
  const results = group.conditions.map((node) => isGroup(node) ? evaluate(node, context) : evaluateCondition(node, context))
  return group.match === 'all' ? results.every(Boolean) : results.length === 0 || results.some(Boolean)
}

function evaluateCondition (condition: Condition, context: ConditionContext): boolean {
  const definition = CONDITION_TYPES.get(condition.type)
  return definition !== undefined && definition.evaluate(context, condition.operator, condition.value)
}

/**
 * Every problem of a condition group, as `{path: message}` (empty when valid): unknown types, operators not of the
 * type, values that fail the type's JSON schema, nesting deeper than two levels, too many conditions.
 */
export function validateConditions (input: unknown, path = 'conditions'): Record<string, string> {
  const problems: Record<string, string> = {}
  let count = 0
  const visit = (node: unknown, at: string, depth: number) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      problems[at] = 'must be a condition or a group'
      return
    }
    const record = node as Record<string, unknown>
    if ('match' in record || 'conditions' in record) {
      if (depth >= MAX_DEPTH) problems[at] = `groups nest at most ${MAX_DEPTH} levels deep`
      if (record.match !== 'all' && record.match !== 'any') problems[`${at}.match`] = 'must be "all" or "any"'
      if (!Array.isArray(record.conditions)) {
        problems[`${at}.conditions`] = 'must be an array'
        return
      }
      for (const key of Object.keys(record)) if (key !== 'match' && key !== 'conditions') problems[`${at}.${key}`] = 'is not allowed'
      record.conditions.forEach((child, index) => visit(child, `${at}.conditions.${index}`, depth + 1))
      return
    }
    count++
    const definition = typeof record.type === 'string' ? CONDITION_TYPES.get(record.type) : undefined
    if (definition === undefined) {
      problems[`${at}.type`] = `must be one of ${[...CONDITION_TYPES.keys()].join(', ')}`
      return
    }
    if (typeof record.operator !== 'string' || !definition.operators.includes(record.operator)) {
      problems[`${at}.operator`] = `must be one of ${definition.operators.join(', ')}`
    }
    const firstError = [...Value.Errors(definition.valueSchema, record.value)][0]
    if (firstError !== undefined) problems[`${at}.value${firstError.instancePath.replace(/\//g, '.')}`] = firstError.message
    for (const key of Object.keys(record)) if (!['type', 'operator', 'value'].includes(key)) problems[`${at}.${key}`] = 'is not allowed'
  }
  visit(input, path, 0)
  if (count > MAX_CONDITIONS) problems[path] = `at most ${MAX_CONDITIONS} conditions`
  return problems
}

/** The listing of `GET conditions/types`. */
export function describeConditionTypes () {
  return [...CONDITION_TYPES.values()].map((definition) => ({
    type: definition.type,
    label: definition.label,
    operators: [...definition.operators],
    value_schema: definition.valueSchema
  }))
}
