/** Small helpers shared by the plugins: no Fastify plugin, no state. */
export { CLIENT_TSCONFIG, bundleEntry, bundleLoader, describeBundle, packageRoot, type ClientBundle } from './client-bundle.ts'
export { isPlainObject, jsonCopy, type Json } from './plain-object.ts'
export { DAY_MS, dayStart, instant } from './days.ts'
export { sendStaticAsset } from './static-asset.ts'
export { boundJsonDepth } from './json-body.ts'
export { repeatWhileOpen } from './repeat.ts'
export { ScopedContext } from './scoped-context.ts'
export { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts'
