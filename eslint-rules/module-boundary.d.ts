import type { Rule } from 'eslint'

declare const moduleBoundary: Rule.RuleModule
export default moduleBoundary
