import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * Whether the browser reached the shop over https: the connection itself, `X-Forwarded-Proto` from a trusted proxy
 * (Fastify's `trustProxy`), or a site URL that is https (a TLS-terminating proxy the app was not told about).
 */
export function isHttps (request: FastifyRequest): boolean {
  return request.protocol === 'https' || request.server.shop.siteUrl.startsWith('https:')
}

/**
 * A cookie's name as the browser keeps it: over https with the `__Host-` prefix, which the browser accepts only from
 * this host, Secure, for the whole site and without a Domain — so no other subdomain, and no plain-http page, can set
 * or overwrite it. Over http (a local demo) the name as it is.
 */
export function cookieName (request: FastifyRequest, name: string): string {
  return isHttps(request) ? `__Host-${name}` : name
}

/** The platform's cookies are signed, httpOnly, SameSite=Lax, Secure and `__Host-` on https, for the whole site. */
export function setSignedCookie (request: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAgeSeconds: number): void {
  reply.setCookie(cookieName(request, name), value, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request),
    signed: true,
    maxAge: maxAgeSeconds
  })
}

/**
 * The value of a signed cookie whose signature holds, else null. Over https only the `__Host-` cookie counts: one
 * without the prefix may have been planted by another subdomain.
 */
export function readSignedCookie (request: FastifyRequest, name: string): string | null {
  const cookie = request.cookies[cookieName(request, name)]
  if (cookie === undefined) return null
  const unsigned = request.unsignCookie(cookie)
  return unsigned.valid && unsigned.value ? unsigned.value : null
}

export function clearCookie (reply: FastifyReply, name: string): void {
  const https = isHttps(reply.request)
  reply.clearCookie(cookieName(reply.request, name), { path: '/', ...(https ? { secure: true } : {}) })
}
