import type { AdminPageConfig } from '../../schemas/admin-page-config.ts'
import type { DrawerConfig, LauncherSettings, Settings } from '../../schemas/settings.ts'
import type { LanguageSettings } from '../../schemas/settings-language.ts'
import type { BehaviourSettings } from '../../schemas/settings-behaviour.ts'
import type { Locale } from '../../../kernel/i18n/locales.ts'
import { h } from '../dom.ts'
import { ApiError } from '../errors.ts'
import { AdminApi, explain } from './api.ts'
import { confirmAction } from './confirm.ts'
import type { ConditionTypeInfo, FormContext } from './context.ts'
import { buildForm } from './form.ts'
import { t, tNodes } from './i18n.ts'
import { clone, getAt, pathKey, setAt, type Json, type Path } from './paths.ts'
import { PreviewFrame } from './preview.ts'
import { ProductDirectory } from './products.ts'
import type { Schema } from './schema.ts'
import { problemList, problemNode, serverProblems, StatusArea, type Problem, type Problems } from './status.ts'

const FREE_SECTIONS = ['enabled', 'drawer_config', 'launcher', 'behaviour', 'recommendations', 'language', 'rewards']
const PRO_SECTIONS = ['smart_addons', 'bundles', 'spotlight', 'analytics']
/** The import route's body limit (design §3.6). */
const MAX_IMPORT_BYTES = 256 * 1024

interface Versioned {
  settings: Settings
  version: number
}

interface Field {
  wrapper: HTMLElement
  error: HTMLElement
}

/**
 * The settings screen: every setting as a control built from the document's JSON schema, a live preview of the
 * drawer with the unsaved values, and save (with the version read, so a save over another manager's is refused and
 * shown), discard, reset to defaults, export and import.
 */
export class SettingsScreen {
  readonly #config: AdminPageConfig
  readonly #api: AdminApi
  readonly #root: HTMLElement
  readonly #schema: Schema
  readonly #pro: boolean
  readonly #status = new StatusArea()
  readonly #form = h('form', { class: 'admin-form', novalidate: true, 'data-role': 'form', 'aria-label': t('settings.form') })
  readonly #preview: PreviewFrame
  readonly #fields = new Map<string, Field>()
  readonly #buttons: Record<'save' | 'discard' | 'reset' | 'export' | 'import', HTMLButtonElement>
  readonly #file = h('input', { type: 'file', accept: 'application/json,.json', hidden: true, 'data-action': 'import-file', 'aria-label': t('settings.importFile') })
  #products: ProductDirectory | null = null
  #conditionTypes: ConditionTypeInfo[] = []
  #saved: Versioned | null = null
  #draft: Json = {}
  /** Values typed that cannot be sent (an amount that is not one), with their messages, by path. */
  readonly #typed = new Map<string, Problem>()
  #busy = false
  /** The language the preview shows and the texts editor edits; null: the draft's shop language. */
  #previewLocale: Locale | null = null

  constructor (config: AdminPageConfig, root: HTMLElement) {
    this.#config = config
    this.#root = root
    this.#api = new AdminApi(config)
    this.#schema = (config.schema ?? {}) as Schema
    this.#pro = config.edition === 'pro'
    this.#preview = new PreviewFrame(config.urls.preview)
    const button = (action: string, text: string, className = '') => {
      const element = h('button', { type: 'button', 'data-action': action, class: className }, text)
      return element
    }
    this.#buttons = {
      save: button('save', t('settings.save'), 'admin-primary'),
      discard: button('discard', t('settings.discard')),
      reset: button('reset', t('settings.reset'), 'admin-danger'),
      export: button('export', t('settings.export')),
      import: button('import', t('settings.import'))
    }
    this.#buttons.save.addEventListener('click', () => { this.#work(() => this.save()) })
    this.#buttons.discard.addEventListener('click', () => { this.#discard() })
    this.#buttons.reset.addEventListener('click', () => { this.#work(() => this.reset()) })
    this.#buttons.export.addEventListener('click', () => { this.#work(() => this.export()) })
    this.#buttons.import.addEventListener('click', () => { this.#file.click() })
    this.#file.addEventListener('change', () => {
      const file = this.#file.files?.[0]
      this.#file.value = ''
      if (file) this.#work(() => this.import(file))
    })
    // Leaving with unsaved changes asks first (the browser's own question).
    window.addEventListener('beforeunload', (event) => {
      if (!this.#dirty) return
      event.preventDefault()
      event.returnValue = ''
    })
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault()
      this.#work(() => this.save())
    })
    // Enter in a one-line field saves, as in any form (the browser's own implicit submission does not happen in a
    // form of many fields without a submit button). Not in a product search, where Enter is part of searching.
    this.#form.addEventListener('keydown', (event) => {
      const target = event.target
      if (event.key !== 'Enter' || event.isComposing || !(target instanceof HTMLInputElement)) return
      if (!['text', 'number'].includes(target.type)) return
      event.preventDefault()
      this.#form.requestSubmit()
    })
  }

  async start (): Promise<void> {
    try {
      const [saved] = await Promise.all([
        this.#api.json<Versioned>('GET', 'settings'),
        this.#pro ? this.#loadProData() : null
      ])
      // Save and discard stay in sight while the form scrolls; the file actions, used now and then, stay at the top.
      this.#root.replaceChildren(
        h('div', { class: 'admin-layout' },
          h('div', { class: 'admin-editor' },
            h('div', { class: 'admin-toolbar' },
              h('div', { class: 'admin-actions', role: 'group', 'aria-label': t('settings.saveGroup') }, this.#buttons.save, this.#buttons.discard),
              this.#status.element),
            h('div', { class: 'admin-actions admin-file-actions', role: 'group', 'aria-label': t('settings.fileGroup') },
              this.#buttons.export, this.#buttons.import, this.#buttons.reset, this.#file),
            this.#form),
          this.#preview.element))
      this.#load(saved, null)
    } catch (error) {
      this.#root.replaceChildren(h('p', { class: 'admin-status', 'data-kind': 'error', role: 'alert' }, ...tNodes('settings.loadFailed', { reason: explain(error) })))
    } finally {
      this.#root.removeAttribute('aria-busy')
    }
  }

  async #loadProData (): Promise<void> {
    this.#products = new ProductDirectory(this.#api)
    const [types] = await Promise.all([
      this.#api.json<ConditionTypeInfo[]>('GET', 'conditions/types'),
      this.#products.preload()
    ])
    this.#conditionTypes = types
  }

  get #dirty (): boolean {
    return this.#saved !== null && JSON.stringify(this.#draft) !== JSON.stringify(this.#saved.settings)
  }

  /** New saved settings: the draft starts over from them. */
  #load (saved: Versioned, message: string | null): void {
    this.#saved = saved
    this.#draft = clone(saved.settings) as unknown as Json
    this.#typed.clear()
    this.#render()
    if (message !== null) this.#status.show('ok', message)
    this.#changed()
  }

  #context (): FormContext {
    return {
      get: (path) => getAt(this.#draft, path),
      set: (path, value) => {
        setAt(this.#draft, path, value)
        this.#clearError(path)
        this.#changed()
      },
      restructure: (path, value, focus) => {
        setAt(this.#draft, path, value)
        this.#render(focus)
        this.#changed()
      },
      invalid: (path, message, lang) => {
        if (message === null) this.#typed.delete(pathKey(path))
        else this.#typed.set(pathKey(path), { text: message, lang })
        const field = this.#fieldFor(pathKey(path))
        if (field === undefined) return
        field.error.replaceChildren(...(message === null ? [] : [problemNode({ text: message, lang })]))
        if (message === null) delete field.wrapper.dataset.invalid
        else field.wrapper.dataset.invalid = ''
      },
      field: (path, wrapper, error) => { this.#fields.set(pathKey(path), { wrapper, error }) },
      products: this.#products,
      conditionTypes: this.#conditionTypes,
      currency: this.#config.currency,
      previewLocale: {
        get: () => this.#previewLocale ?? (this.#draft.language as LanguageSettings | undefined)?.locale ?? 'en',
        set: (locale) => {
          this.#previewLocale = locale
          this.#render('language.texts')
          this.#changed()
        }
      }
    }
  }

  /** Draws the form from the draft, keeping the problems shown and moving focus to `focus` (a `data-path`). */
  #render (focus?: string): void {
    const shown = this.#shownProblems
    // Drawn again after a save or a list edit: the field that had the focus gets it back (a keyboard user stays put).
    const active = document.activeElement
    const had = active instanceof HTMLElement && this.#form.contains(active) && active.id !== '' ? active.id : null
    this.#fields.clear()
    const sections = this.#pro ? [...FREE_SECTIONS, ...PRO_SECTIONS] : FREE_SECTIONS
    this.#form.replaceChildren(...buildForm(this.#context(), this.#schema, sections))
    const typed = this.#typedProblems()
    if (shown !== null || Object.keys(typed).length > 0) this.#markFields({ ...(shown ?? {}), ...typed })
    if (focus === undefined && had !== null) document.getElementById(had)?.focus()
    if (focus !== undefined) {
      const target = this.#form.querySelector<HTMLElement>(`[data-path="${CSS.escape(focus)}"]`)
      const control = target?.matches('button,input,select,textarea') ? target : target?.querySelector<HTMLElement>('input,select,textarea,button') ?? target
      control?.focus()
    }
  }

  #changed (): void {
    const dirty = this.#dirty
    this.#buttons.discard.disabled = !dirty
    this.#root.dataset.dirty = String(dirty)
    if (dirty && this.#status.element.dataset.kind !== 'error') this.#status.show('warning', t('settings.unsaved'))
    else if (!dirty && this.#status.element.dataset.kind === 'warning') this.#status.clear()
    const language = this.#draft.language as LanguageSettings
    this.#preview.update(this.#draft.drawer_config as DrawerConfig, this.#draft.launcher as LauncherSettings, language, this.#previewLocale ?? language.locale, this.#draft.behaviour as BehaviourSettings)
  }

  /** One action at a time; a refusal is shown in words. */
  #work (action: () => Promise<void>): void {
    if (this.#busy) return
    this.#busy = true
    this.#root.setAttribute('aria-busy', 'true')
    for (const button of Object.values(this.#buttons)) button.disabled = true
    action().catch((error: unknown) => {
      this.#status.show('error', explain(error))
    }).finally(() => {
      this.#busy = false
      this.#root.removeAttribute('aria-busy')
      for (const button of Object.values(this.#buttons)) button.disabled = false
      this.#buttons.discard.disabled = !this.#dirty
    })
  }

  // ---- actions ---------------------------------------------------------------------------------------------------

  async save (overwrite?: number): Promise<void> {
    if (this.#saved === null) return
    this.#clearProblems()
    const typed = this.#typedProblems()
    if (Object.keys(typed).length > 0) return this.#showProblems(typed)
    try {
      const saved = await this.#api.json<Versioned>('POST', 'settings', { settings: this.#draft, version: overwrite ?? this.#saved.version })
      this.#load(saved, t('settings.saved'))
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      if (error.status === 409 && error.code === 'svc_settings_conflict') return this.#conflict(Number(error.data.version))
      if (error.status === 400 && error.data.params && typeof error.data.params === 'object') {
        return this.#showProblems(serverProblems(error.data.params as Record<string, string>))
      }
      throw error
    }
  }

  /** Another manager saved since this page read the settings: keep the draft, offer their version or ours. */
  #conflict (version: number): void {
    const reload = h('button', { type: 'button', 'data-action': 'conflict-reload' }, t('settings.conflictReload'))
    const overwrite = h('button', { type: 'button', 'data-action': 'conflict-overwrite' }, t('settings.conflictOverwrite'))
    reload.addEventListener('click', () => {
      this.#work(async () => { this.#load(await this.#api.json<Versioned>('GET', 'settings'), t('settings.conflictLoaded')) })
    })
    overwrite.addEventListener('click', () => { this.#work(() => this.save(version)) })
    this.#status.show('error', t('settings.conflict'), [h('p', {}, reload, ' ', overwrite)])
    this.#root.dataset.conflict = String(version)
  }

  #discard (): void {
    if (this.#saved === null) return
    this.#clearProblems()
    this.#load(this.#saved, t('settings.discarded'))
  }

  async reset (): Promise<void> {
    const sure = await confirmAction(t('settings.resetAsk'), t('settings.resetDetail'), t('settings.reset'))
    if (!sure) return
    this.#clearProblems()
    this.#load(await this.#api.json<Versioned>('DELETE', 'settings'), t('settings.resetDone'))
  }

  async export (): Promise<void> {
    const response = await this.#api.response('GET', 'settings/export')
    const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'svc-settings.json'
    const url = URL.createObjectURL(new Blob([await response.text()], { type: 'application/json' }))
    const link = h('a', { href: url, download: name, hidden: true })
    document.body.appendChild(link)
    link.click()
    link.remove()
    setTimeout(() => { URL.revokeObjectURL(url) }, 60_000)
    this.#status.show('ok', t('settings.exported', { file: name }))
  }

  /** Checks what can be checked here, asks, then lets the server check the whole file: invalid, nothing changes. */
  async import (file: File): Promise<void> {
    this.#clearProblems()
    if (file.size > MAX_IMPORT_BYTES) return this.#status.show('error', t('settings.importTooBig', { size: Math.ceil(file.size / 1024) }))
    let document: unknown
    try {
      document = JSON.parse(await file.text())
    } catch {
      return this.#status.show('error', t('settings.importNotJson'))
    }
    const sure = await confirmAction(t('settings.importAsk', { file: file.name }),
      t(this.#dirty ? 'settings.importDetailDirty' : 'settings.importDetail'), t('settings.importConfirm'))
    if (!sure) return
    try {
      this.#load(await this.#api.json<Versioned>('POST', 'settings/import', document), t('settings.imported', { file: file.name }))
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.data.params && typeof error.data.params === 'object') {
        return this.#importRefused(serverProblems(error.data.params as Record<string, string>))
      }
      if (error instanceof ApiError && error.status === 413) return this.#status.show('error', t('settings.importTooLarge'))
      throw error
    }
  }

  #importRefused (problems: Problems): void {
    this.#status.show('error', t('settings.importRefused', { count: Object.keys(problems).length }), [problemList(problems)])
  }

  // ---- problems next to their fields -----------------------------------------------------------------------------

  #shownProblems: Problems | null = null

  /** The values typed that cannot be sent and are still in the draft (a list edit may have removed one). */
  #typedProblems (): Problems {
    for (const path of this.#typed.keys()) {
      if (typeof getAt(this.#draft, path.split('.')) !== 'string') this.#typed.delete(path)
    }
    return Object.fromEntries(this.#typed)
  }

  #showProblems (problems: Problems): void {
    this.#shownProblems = problems
    this.#status.show('error', t('settings.notSaved', { count: Object.keys(problems).length }), [problemList(problems, (path) => { this.#focusField(path) })])
    this.#markFields(problems)
    const first = Object.keys(problems)[0]
    if (first !== undefined) this.#focusField(first)
  }

  /** The registered field closest to a problem's path (`a.b.3.value` → `a.b.3` when `value` has no field of its own). */
  #fieldFor (path: string): Field | undefined {
    const parts = path.split('.')
    for (let length = parts.length; length > 0; length--) {
      const found = this.#fields.get(parts.slice(0, length).join('.'))
      if (found !== undefined) return found
    }
    return undefined
  }

  #markFields (problems: Problems): void {
    for (const field of this.#fields.values()) {
      field.error.textContent = ''
      delete field.wrapper.dataset.invalid
    }
    for (const [path, problem] of Object.entries(problems)) {
      const field = this.#fieldFor(path)
      if (field === undefined) continue
      const exact = field.error.dataset.error === path
      // A problem of a value inside the field (a condition's `value`) names the value's key in the document.
      const line = exact
        ? [problemNode(problem)]
        : tNodes('problem.line', { place: h('code', { translate: 'no' }, path.slice((field.error.dataset.error ?? '').length + 1)), problem: problemNode(problem) })
      if (field.error.hasChildNodes()) field.error.append(' ')
      field.error.append(...line)
      field.wrapper.dataset.invalid = ''
    }
  }

  #focusField (path: string): void {
    const field = this.#fieldFor(path)
    const control = field?.wrapper.querySelector<HTMLElement>('input,select,textarea') ?? field?.wrapper
    control?.focus()
  }

  #clearError (path: Path): void {
    const field = this.#fields.get(pathKey(path))
    if (field === undefined || !('invalid' in field.wrapper.dataset)) return
    field.error.textContent = ''
    delete field.wrapper.dataset.invalid
    if (this.#shownProblems !== null) {
      const key = pathKey(path)
      this.#shownProblems = Object.fromEntries(Object.entries(this.#shownProblems).filter(([problem]) => problem !== key))
    }
  }

  #clearProblems (): void {
    this.#shownProblems = null
    delete this.#root.dataset.conflict
    this.#status.clear()
    this.#markFields({})
  }
}
