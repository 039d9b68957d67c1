import type { Socket } from 'node:net'
import { restError } from './codes.ts'

/**
 * Requests that never reach a route (a malformed request line or header) are answered on the raw socket; this
 * keeps even those answers in the one error shape instead of Fastify's default body.
 */
export function clientErrorHandler (error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
  const rest = tooLarge
    ? restError('svc_invalid_params', 'The request headers are too large.')
    : restError('svc_invalid_params', 'The request could not be understood.')
  const status = tooLarge ? 431 : 400
  const body = JSON.stringify({ ...rest.toBody(), data: { status } })
  socket.end(`HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' + body)
}
