import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { clearCookie, readSignedCookie, setSignedCookie } from '../session/cookies.ts'
import type { Authenticated, AuthService } from './auth-service.ts'

export const SESSION_COOKIE = 'svc_session'
const resolved = new WeakMap<FastifyRequest, Promise<Authenticated | null>>()
/** Sessions whose id was replaced while the request was served: the answer carries the new id. */
const renewed = new WeakMap<FastifyRequest, { sessionId: string, maxAgeSeconds: number }>()

/** The logged-in user of a request (from the signed session cookie), looked up once per request. */
export function requestUser (request: FastifyRequest, auth: AuthService): Promise<Authenticated | null> {
  let found = resolved.get(request)
  if (found === undefined) {
    found = lookUp(request, auth)
    resolved.set(request, found)
  }
  return found
}

async function lookUp (request: FastifyRequest, auth: AuthService): Promise<Authenticated | null> {
  const sessionId = readSignedCookie(request, SESSION_COOKIE)
  if (sessionId === null) return null
  const found = await auth.resolve(sessionId)
  if (found === null) return null
  if (found.renewed !== undefined) renewed.set(request, found.renewed)
  return { user: found.user, session: found.session }
}

/**
 * Every answer of a request whose session got a new id (a privilege change, `AuthService.resolve`) sets the session
 * cookie to it, whichever route looked the user up and whatever it answered.
 */
export function installSessionRenewal (fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const next = renewed.get(request)
    if (next !== undefined) setSignedCookie(request, reply, SESSION_COOKIE, next.sessionId, next.maxAgeSeconds)
    done(null, payload)
  })
}

/** Sets the session cookie; a renewal found earlier in the request gives way to it (a login, a logout). */
export function setSessionCookie (request: FastifyRequest, reply: FastifyReply, sessionId: string, maxAge: number): void {
  renewed.delete(request)
  setSignedCookie(request, reply, SESSION_COOKIE, sessionId, maxAge)
}

export function clearSessionCookie (reply: FastifyReply): void {
  renewed.delete(reply.request)
  clearCookie(reply, SESSION_COOKIE)
}
