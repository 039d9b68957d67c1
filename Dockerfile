# Node 22 (LTS): Node 20 reached its end of life on 2026-04-30.

# Build stage: every dependency (TypeScript, tsx, esbuild), then `npm run build`: the server and plugins compiled to
# dist/ and the browser scripts bundled into dist/client/.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Runtime stage: the production dependencies and dist/ only (no sources, TypeScript, tsx or esbuild).
FROM node:22-bookworm-slim
# tini (Debian's package) is PID 1: it hands SIGTERM and SIGINT to Node, whose handlers finish the requests in flight
# (server.ts), and reaps orphaned processes. Built in, so the image needs no `docker run --init`.
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Production mode: no demo catalog or demo users, and the server refuses to start without a secret of its own
# (SVC_SECRET) or with a published demo password.
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# fastify is a peer dependency (a shop's app brings its own); npm installs peers, so the locked fastify comes with the
# production dependencies here.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
ENV HOST=0.0.0.0 PORT=3000 SVC_DATA_DIR=/data
EXPOSE 3000
USER node
# Ready when storage and rate counters answer (hosts/reference-shop/health). Node's own fetch: slim images have no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server.js"]
