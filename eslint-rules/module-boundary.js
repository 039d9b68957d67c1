import { existsSync } from 'node:fs'
import path from 'node:path'

/**
 * A module is a folder with an `index.ts`; its index is its only public surface. An import that reaches a file of a
 * module from outside that module must name the module's `index.ts`. Modules nest; the nearest enclosing module of the
 * imported file is always checked, and a sealed module (the rule's `sealed` option: the drawer, the reference shop) is
 * checked too when it encloses the file further out: a file of `drawer/` reaches `drawer/plugins/security/index.ts`,
 * but a host outside `drawer/` reaches only `drawer/index.ts`. An unsealed module's inner modules stay public
 * (`storage/contract/`, which the drawer reads without loading `storage/`'s database clients). Files of a module's own folder (and of folders below
 * it) may import each other freely, and a test under `test/<module's path>/` may reach the files of the module it
 * tests (a unit test of `hosts/reference-shop/auth/password.ts` lives in `test/hosts/reference-shop/`).
 *
 * Hand-written because `no-restricted-imports` matches the import's text, not the file it resolves to, and
 * `import-x/no-restricted-paths` needs one zone per module written out: this rule finds the modules from the tree.
 */
const moduleRoots = new Map()

function isModuleRoot (dir) {
  let known = moduleRoots.get(dir)
  if (known === undefined) {
    known = existsSync(path.join(dir, 'index.ts'))
    moduleRoots.set(dir, known)
  }
  return known
}

/** The folders of every module enclosing `file` below `top` (folders holding `index.ts`), outermost first. */
function moduleRootsOf (file, top) {
  const roots = []
  let dir = path.dirname(file)
  while (dir.startsWith(top) && dir !== top) {
    if (isModuleRoot(dir)) roots.unshift(dir)
    dir = path.dirname(dir)
  }
  return roots
}

function within (file, dir) {
  return file === dir || file.startsWith(dir + path.sep)
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Import another module only through its index.ts: the module\'s public surface.' },
    schema: [{
      type: 'object',
      properties: { sealed: { type: 'array', items: { type: 'string' } } },
      additionalProperties: false
    }],
    messages: {
      private: 'Import {{module}} through its index.ts: {{file}} is private to that module.'
    }
  },
  create (context) {
    const top = context.cwd
    const sealed = new Set((context.options[0]?.sealed ?? []).map((dir) => path.join(top, dir)))
    const importer = context.filename
    const testOf = within(importer, path.join(top, 'test'))
      ? path.join(top, path.relative(path.join(top, 'test'), importer))
      : null
    function check (node) {
      const source = node.source?.value
      if (typeof source !== 'string' || !source.startsWith('.')) return
      const target = path.resolve(path.dirname(importer), source)
      const roots = moduleRootsOf(target, top)
      for (const [index, root] of roots.entries()) {
        if (index < roots.length - 1 && !sealed.has(root)) continue
        if (target === path.join(root, 'index.ts')) return
        if (within(importer, root)) continue
        if (testOf !== null && within(testOf, root)) continue
        context.report({
          node: node.source,
          messageId: 'private',
          data: { module: path.relative(top, root) + '/', file: path.relative(top, target) }
        })
        return
      }
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check }
  }
}
