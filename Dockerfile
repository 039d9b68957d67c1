FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
RUN node_modules/.bin/tsx scripts/build-client.ts && mkdir -p /data && chown node:node /data
ENV HOST=0.0.0.0 PORT=3000 SVC_DATA_DIR=/data
EXPOSE 3000
USER node
CMD ["node_modules/.bin/tsx", "server.ts"]
