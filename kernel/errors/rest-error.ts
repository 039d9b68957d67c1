/**
 * Every error the service or the platform sends has the WordPress REST shape
 * `{code, message, data: {status, ...}}`. Errors are raised as `RestError` and shaped by one handler.
 */
export class RestError extends Error {
  readonly code: string
  readonly status: number
  readonly data: Record<string, unknown>
  readonly headers: Record<string, string>

  constructor (code: string, message: string, status: number, data: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'RestError'
    this.code = code
    this.status = status
    this.data = data
    this.headers = headers
  }

  toBody (): RestErrorBody {
    return { code: this.code, message: this.message, data: { ...this.data, status: this.status } }
  }
}

export interface RestErrorBody {
  code: string
  message: string
  data: { status: number, [key: string]: unknown }
}
