import type { FastifyReply, FastifyRequest } from 'fastify'

/** The platform's cookies are signed, httpOnly, SameSite=Lax, Secure on https, for the whole site. */
export function setSignedCookie (request: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAgeSeconds: number): void {
  reply.setCookie(name, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
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
