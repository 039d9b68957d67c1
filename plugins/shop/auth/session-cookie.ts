import type { FastifyReply, FastifyRequest } from 'fastify'
import { clearCookie, readSignedCookie, setSignedCookie } from '../session/cookies.ts'
import type { Authenticated, AuthService } from './auth-service.ts'

export const SESSION_COOKIE = 'svc_session'
const resolved = new WeakMap<FastifyRequest, Promise<Authenticated | null>>()

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
  return sessionId === null ? null : auth.resolve(sessionId)
}

export function setSessionCookie (request: FastifyRequest, reply: FastifyReply, sessionId: string, maxAge: number): void {
  setSignedCookie(request, reply, SESSION_COOKIE, sessionId, maxAge)
}

export function clearSessionCookie (reply: FastifyReply): void {
  clearCookie(reply, SESSION_COOKIE)
}
