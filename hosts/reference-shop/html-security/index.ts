import helmet from 'helmet'
import fp from 'fastify-plugin'

export interface HtmlSecurityOptions {
  /** Origins (besides the page's own) that pages may load images from and send requests to: the site and home URLs'. */
  origins?: readonly string[]
}

function originOf (url: string): string | null {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

/**
 * `X-Content-Type-Options: nosniff` on every response. Security headers on HTML responses only (the JSON API needs
 * none of the others): a Content-Security-Policy that runs
 * no inline script (`script-src 'self'`; `<script type="application/json">` data blocks are not scripts), no
 * plugins, no framing by other sites, plus `X-Content-Type-Options: nosniff` and helmet's other defaults.
 */
export const htmlSecurityPlugin = fp<HtmlSecurityOptions>(async (fastify, options) => {
  const origins = [...new Set((options.origins ?? []).map(originOf).filter((origin): origin is string => origin !== null))]
  // The headers of helmet's middleware, built once and applied to HTML answers only (no hook of its own on every
  // request: the JSON routes need none of them).
  const applyHtmlHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        // The pages' own <style> element and the drawer's style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', ...origins],
        connectSrc: ["'self'", ...origins],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"]
      }
    },
    // HSTS is the TLS terminator's business: a demo shop on http://localhost must not pin itself to https.
    strictTransportSecurity: false
  })
  // A hook without a promise: it runs on every answer.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    // Every answer, JSON, scripts, CSV and errors included, is read as the type it says it is.
    reply.header('X-Content-Type-Options', 'nosniff')
    const type = reply.getHeader('content-type')
    if (typeof type === 'string' && type.startsWith('text/html')) {
      applyHtmlHeaders(request.raw, reply.raw, (error?: unknown) => {
        if (error instanceof Error) done(error)
        else done(null, payload)
      })
      return
    }
    done(null, payload)
  })
}, { name: 'html-security', fastify: '5.x' })
