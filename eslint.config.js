import neostandard from 'neostandard'

/**
 * A plugin's `index.ts` is its only public surface: code in one plugin (or outside `plugins/`) may import another
 * plugin's `index.ts`, never its other files. A file `depth` folders below `plugins/<name>/` reaches another plugin
 * through `../` × (depth + 1); the rule refuses such a path unless it ends in `/index.ts`.
 */
const PUBLIC_SURFACE = 'Import another plugin through its index.ts only: it is the plugin\'s public surface.'
function pluginBoundary (prefix) {
  return {
    'no-restricted-imports': ['error', {
      patterns: [{ regex: `^${prefix}(?!\\.\\.)[^/]+/(?!index\\.ts$).+`, message: PUBLIC_SURFACE }]
    }]
  }
}

export default [
  ...neostandard({
    ts: true,
    ignores: ['dist/**', 'node_modules/**', '.tap/**', 'coverage/**', 'data/**']
  }),
  { files: ['plugins/*/*.ts'], rules: pluginBoundary('\\.\\./') },
  { files: ['plugins/*/*/*.ts'], rules: pluginBoundary('\\.\\./\\.\\./') },
  { files: ['plugins/*/*/*/*.ts'], rules: pluginBoundary('\\.\\./\\.\\./\\.\\./') },
  { files: ['*.ts'], rules: pluginBoundary('\\./plugins/') },
  { files: ['config/**/*.ts', 'seed/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts', 'storage/**/*.ts', 'lib/**/*.ts', 'examples/*/*.ts', 'testing/*.ts'], rules: pluginBoundary('(\\.\\./)+plugins/') },
  // The port contract kit (`cart-drawer-service/testing`) is used as a host uses it: through its index.ts.
  {
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: '^(\\.\\./)+testing/(?!index\\.ts$).+', message: 'Import the port contract kit through testing/index.ts only: it is the package entry cart-drawer-service/testing.' }]
      }]
    }
  }
]
