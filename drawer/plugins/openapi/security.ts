import type { AccessGroup } from '../security/index.ts'

/**
 * The credentials a request can carry, as OpenAPI security schemes, and the `security` of each kind of route. A
 * route's schema names its own `security` (these constants); an `svc/v1` route's follows from its access group in
 * the security plugin's route table (`svcSecurity`). An empty requirement `{}` among the alternatives means the
 * operation also works without any of them.
 */

export type SecurityRequirement = Record<string, string[]>

export const CART_TOKEN_SCHEME = 'cartToken'
export const CART_COOKIE_SCHEME = 'cartCookie'
export const SESSION_COOKIE_SCHEME = 'sessionCookie'
export const REST_NONCE_SCHEME = 'restNonce'

/** The names of the platform's two cookies, which the cookie schemes document. */
export interface CookieNames {
  cart: string
  session: string
}

/** The credentials' schemes, named after the platform's cookies. */
export function securitySchemes (cookies: CookieNames) {
  return {
    [CART_TOKEN_SCHEME]: {
      type: 'apiKey',
      in: 'header',
      name: 'Cart-Token',
      description: 'The Cart-Token of an earlier response names the cart (HS256 JWT, 48 hours). On the Store API an ' +
        'invalid or expired token starts a new cart; on `svc/v1` it is refused (403 `svc_invalid_cart_token`). The ' +
        "token of a logged-in user's cart counts only with that user's session cookie: otherwise it is treated as invalid."
    },
    [CART_COOKIE_SCHEME]: {
      type: 'apiKey',
      in: 'cookie',
      name: cookies.cart,
      description: "The browser's classic cart session: a signed cookie naming the cart, set by the platform when a " +
        'request without a Cart-Token starts or finds a cart.'
    },
    [SESSION_COOKIE_SCHEME]: {
      type: 'apiKey',
      in: 'cookie',
      name: cookies.session,
      description: 'The signed session cookie of a logged-in user, set by `POST /account/login`: a new id at every login ' +
        "and when the user's capabilities change; by default the session ends after 30 minutes without use and 12 hours after the login."
    },
    [REST_NONCE_SCHEME]: {
      type: 'apiKey',
      in: 'header',
      name: 'X-WP-Nonce',
      description: 'The REST nonce (action `wp_rest`) of the logged-in user, from `POST /account/login` or ' +
        '`GET /account/rest-nonce`; sent with the session cookie, as WordPress does.'
    }
  } as const
}

/** Sends no credentials and reads none. */
export const PUBLIC_SECURITY: SecurityRequirement[] = []

/** Works without credentials; a logged-in user's session cookie changes what it shows. */
export const OPTIONAL_SESSION_SECURITY: SecurityRequirement[] = [{ [SESSION_COOKIE_SCHEME]: [] }, {}]

/** Needs a logged-in user (the session cookie alone, no nonce: a page or the nonce itself). */
export const SESSION_SECURITY: SecurityRequirement[] = [{ [SESSION_COOKIE_SCHEME]: [] }]

/**
 * The platform's cart on the Store API: a Cart-Token wins; else the cart cookie; else a logged-in user's own cart;
 * with none of them a new cart starts.
 */
export const STORE_API_CART_SECURITY: SecurityRequirement[] = [
  { [CART_TOKEN_SCHEME]: [] }, { [CART_COOKIE_SCHEME]: [] }, { [SESSION_COOKIE_SCHEME]: [] }, {}
]

/**
 * The browser's cart (the classic `?wc-ajax=` actions, the storefront's pages): the cart cookie, else a logged-in
 * user's own cart, else a new cart; no Cart-Token.
 */
export const COOKIE_CART_SECURITY: SecurityRequirement[] = [{ [CART_COOKIE_SCHEME]: [] }, { [SESSION_COOKIE_SCHEME]: [] }, {}]

/** Logging in: a guest's cart (Cart-Token or cart cookie) joins the user's saved cart. */
export const LOGIN_SECURITY: SecurityRequirement[] = [{ [CART_TOKEN_SCHEME]: [] }, { [CART_COOKIE_SCHEME]: [] }, {}]

/**
 * The access groups of the `svc/v1` routes (specification §5): a cart session is a valid Cart-Token, with the session
 * cookie and its nonce for a logged-in visitor (a guest sends no nonce); admin is the session cookie of a user with
 * `manage_shop` and its nonce; public needs nothing.
 */
export function svcSecurity (access: AccessGroup): SecurityRequirement[] {
  switch (access) {
    case 'cart':
      return [{ [CART_TOKEN_SCHEME]: [] }, { [CART_TOKEN_SCHEME]: [], [SESSION_COOKIE_SCHEME]: [], [REST_NONCE_SCHEME]: [] }]
    case 'admin':
      return [{ [SESSION_COOKIE_SCHEME]: [], [REST_NONCE_SCHEME]: [] }]
    case 'public':
      return PUBLIC_SECURITY
  }
}
