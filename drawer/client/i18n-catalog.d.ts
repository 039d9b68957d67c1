/** The English catalog, compiled from kernel/i18n/en.ts when the script is bundled (kernel/lib/client-bundle.ts). */
declare module 'svc-i18n:en' {
  const catalog: import('../../kernel/i18n/locales.ts').CompiledCatalog
  export default catalog
}
