import { Type } from 'typebox'

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  // Bounded so a huge password cannot make scrypt expensive.
  password: Type.String({ minLength: 1, maxLength: 1024 })
})

export const PublicUserSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  display_name: Type.String(),
  capabilities: Type.Array(Type.String())
})

export const LoginResponse = Type.Object({
  user: PublicUserSchema,
  nonce: Type.String({ description: 'The REST nonce (action wp_rest) to send as X-WP-Nonce.' })
})

export const NonceResponse = Type.Object({ nonce: Type.String() })

export const LogoutResponse = Type.Object({ logged_out: Type.Boolean() })
