/** The English catalog, compiled from i18n/en.ts when the script is bundled (lib/client-bundle.ts). */
declare module 'svc-i18n:en' {
  const catalog: import('../i18n/locales.ts').CompiledCatalog
  export default catalog
}
