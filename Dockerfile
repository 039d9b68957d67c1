# Node 22 (LTS): Node 20 reached its end of life on 2026-04-30.
FROM node:22-bookworm-slim
WORKDIR /app
# Production mode: no demo catalog or demo users, and the server refuses to start without a secret of its own
# (SVC_SECRET) or with a published demo password.
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
RUN node_modules/.bin/tsx scripts/build-client.ts && mkdir -p /data && chown node:node /data
ENV HOST=0.0.0.0 PORT=3000 SVC_DATA_DIR=/data
EXPOSE 3000
USER node
CMD ["node_modules/.bin/tsx", "server.ts"]
