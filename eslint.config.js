import neostandard from 'neostandard'
import moduleBoundary from './eslint-rules/module-boundary.js'

export default [
  ...neostandard({
    ts: true,
    ignores: ['dist/**', 'node_modules/**', '.tap/**', 'coverage/**', 'data/**']
  }),
  {
    // A module's index.ts is its only public surface (eslint-rules/module-boundary.js), client/ and test/ included.
    files: ['**/*.ts'],
    plugins: { svc: { rules: { 'module-boundary': moduleBoundary } } },
    rules: { 'svc/module-boundary': 'error' }
  }
]
