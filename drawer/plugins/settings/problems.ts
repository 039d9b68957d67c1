/** `{path: message}`: every problem of a settings document, one message per path (`drawer_config.width_desktop`). */
export type SettingsProblems = Record<string, string>
