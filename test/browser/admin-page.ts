import type { Frame, Page } from 'playwright-core'

/** What the admin screens' browser tests share: the page, its status line, and the live preview's frame. */
export const ADMIN_PAGE = '/admin/cart-drawer/'
export const status = '[data-role="status"]'

/** Opens the settings screen at `origin` and logs in through its own form, as a manager would. */
export async function logInOnAdminPage (page: Page, origin: string, who: { email: string, password: string }): Promise<void> {
  await page.goto(origin + ADMIN_PAGE)
  await page.fill('form#admin-login input[name="email"]', who.email)
  await page.fill('form#admin-login input[name="password"]', who.password)
  await page.click('form#admin-login button[type="submit"]')
  await page.waitForSelector('[data-section="drawer_config"]')
}

export async function previewFrame (page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe[data-role="preview"]')
  const frame = await handle.contentFrame()
  if (frame === null) throw new Error('no preview frame')
  await frame.waitForSelector('body[data-preview="ready"]')
  return frame
}

/** A custom property of the drawer's root element (`--svc-c-primary`, say) on a page or in the preview. */
export function rootProperty (target: Page | Frame, name: string): Promise<string> {
  return target.$eval('[data-svc="root"]', (root, property) => (root as HTMLElement).style.getPropertyValue(property), name)
}

/** Clicks Save, waits for the settings request and the screen to settle; returns the status line. */
export async function saveAndWait (page: Page): Promise<string> {
  const answer = page.waitForResponse((response) => response.url().endsWith('/svc/v1/settings') && response.request().method() === 'POST')
  await page.click('button[data-action="save"]')
  await answer
  await page.waitForSelector('#admin-app:not([aria-busy])')
  return (await page.textContent(status)) ?? ''
}
