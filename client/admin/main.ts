import { ADMIN_CONFIG_ID, type AdminPageConfig } from '../../plugins/admin-screens/page-config.ts'
import { AnalyticsScreen } from './analytics-screen.ts'
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

function start (): void {
  const config = readConfig()
  if (config === null) return
  wireLogin(config)
  const root = document.getElementById('admin-app')
  if (config.screen === 'preview') startPreviewFrame(config)
  else if (config.screen === 'settings' && root !== null) new SettingsScreen(config, root).start().catch(() => {})
  else if (config.screen === 'analytics' && root !== null) new AnalyticsScreen(config, root).start().catch(() => {})
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
else start()
