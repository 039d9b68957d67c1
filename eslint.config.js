import neostandard from 'neostandard'
import moduleBoundary from './eslint-rules/module-boundary.js'

export default [
  ...neostandard({
    ts: true,
    ignores: ['dist/**', 'node_modules/**', '.tap/**', 'coverage/**', 'data/**']
  }),
  {
    // A module's index.ts is its only public surface (eslint-rules/module-boundary.js), drawer/client/ and test/ included;
    // the drawer and the reference shop are sealed: nothing outside reaches their inner modules either.
    files: ['**/*.ts'],
    plugins: { svc: { rules: { 'module-boundary': moduleBoundary } } },
    rules: { 'svc/module-boundary': ['error', { sealed: ['drawer', 'hosts/reference-shop'] }] }
  }
]
