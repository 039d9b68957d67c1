export { CONDITION_TYPES, type ConditionType } from './catalog.ts'
export { conditionContext, type Visitor } from './context.ts'
export { describeConditionTypes, evaluate, validateConditions } from './engine.ts'
export type { Condition, ConditionContext, ConditionGroup } from './types.ts'
