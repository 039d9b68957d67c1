import { ADMIN_CONFIG_ID, type AdminPageConfig } from '../../schemas/admin-page-config.ts'
import { AnalyticsScreen } from './analytics-screen.ts'
import { loadWords } from './i18n.ts'
import { wireLogin } from './login.ts'
import { startPreviewFrame } from './preview.ts'
import { SettingsScreen } from './settings-screen.ts'

/** The admin pages' one script: which screen to start comes from the page's configuration. */
function readConfig (): AdminPageConfig | null {
  const element = document.getElementById(ADMIN_CONFIG_ID)
  if (element === null) return null
  try {
    return JSON.parse(element.textContent ?? '') as AdminPageConfig
  } catch {
    return null
  }
}

async function start (): Promise<void> {
  const config = readConfig()
  if (config === null) return
  // The login form at once (its messages are looked up when shown), then the page's words before a screen is drawn.
  wireLogin(config)
  await loadWords(config.i18n)
  const root = document.getElementById('admin-app')
  if (config.screen === 'preview') startPreviewFrame(config)
  else if (config.screen === 'settings' && root !== null) new SettingsScreen(config, root).start().catch(() => {})
  else if (config.screen === 'analytics' && root !== null) new AnalyticsScreen(config, root).start().catch(() => {})
}

const run = () => { start().catch(() => {}) }
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run)
else run()
