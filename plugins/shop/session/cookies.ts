import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * Whether the browser reached the shop over https: the connection itself, `X-Forwarded-Proto` from a trusted proxy
 * (Fastify's `trustProxy`), or a site URL that is https (a TLS-terminating proxy the app was not told about).
 */
export function isHttps (request: FastifyRequest): boolean {
  return request.protocol === 'https' || request.server.shop.siteUrl.startsWith('https:')
}

/** The platform's cookies are signed, httpOnly, SameSite=Lax, Secure on https, for the whole site. */
export function setSignedCookie (request: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAgeSeconds: number): void {
  reply.setCookie(name, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request),
    signed: true,
    maxAge: maxAgeSeconds
  })
}

/** The value of a signed cookie whose signature holds, else null. */
export function readSignedCookie (request: FastifyRequest, name: string): string | null {
  const cookie = request.cookies[name]
  if (cookie === undefined) return null
  const unsigned = request.unsignCookie(cookie)
  return unsigned.valid && unsigned.value ? unsigned.value : null
}

export function clearCookie (reply: FastifyReply, name: string): void {
  reply.clearCookie(name, { path: '/' })
}
