import type { FastifyReply } from 'fastify'

/** Sends JSON bytes as they are (a string with a JSON content type is not serialized again). */
export function sendJson (reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json)
}
