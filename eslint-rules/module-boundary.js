import { existsSync } from 'node:fs'
import path from 'node:path'

/**
 * A module is a folder with an `index.ts`; its index is its only public surface. An import that reaches a file of a
 * module from outside that module must name the module's `index.ts`. Files of a module's own folder (and of folders
 * below it) may import each other freely, and a test under `test/<module's path>/` may reach the files of the module
 * it tests (a unit test of `plugins/shop/auth/password.ts` lives in `test/plugins/shop/`).
 *
 * Hand-written because `no-restricted-imports` matches the import's text, not the file it resolves to, and
 * `import-x/no-restricted-paths` needs one zone per module written out: this rule finds the modules from the tree.
 */
const moduleRoots = new Map()

/** The folder of the nearest enclosing module of `file` (a folder holding `index.ts`) below `top`, or null. */
function moduleRootOf (file, top) {
  let dir = path.dirname(file)
  while (dir.startsWith(top) && dir !== top) {
    let known = moduleRoots.get(dir)
    if (known === undefined) {
      known = existsSync(path.join(dir, 'index.ts'))
      moduleRoots.set(dir, known)
    }
    if (known) return dir
    dir = path.dirname(dir)
  }
  return null
}

function within (file, dir) {
  return file === dir || file.startsWith(dir + path.sep)
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Import another module only through its index.ts: the module\'s public surface.' },
    schema: [],
    messages: {
      private: 'Import {{module}} through its index.ts: {{file}} is private to that module.'
    }
  },
  create (context) {
    const top = context.cwd
    const importer = context.filename
    const testOf = within(importer, path.join(top, 'test'))
      ? path.join(top, path.relative(path.join(top, 'test'), importer))
      : null
    function check (node) {
      const source = node.source?.value
      if (typeof source !== 'string' || !source.startsWith('.')) return
      const target = path.resolve(path.dirname(importer), source)
      const root = moduleRootOf(target, top)
      if (root === null || target === path.join(root, 'index.ts')) return
      if (within(importer, root)) return
      if (testOf !== null && within(testOf, root)) return
      context.report({
        node: node.source,
        messageId: 'private',
        data: { module: path.relative(top, root) + '/', file: path.relative(top, target) }
      })
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check }
  }
}
