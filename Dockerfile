# BKE Online server image. Not built on the development machines (they run no Docker engine).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
RUN npm install -g pnpm@10.34.9
COPY . .
RUN node -e "import('./scripts/lib/bootstrap.mjs').then((m) => m.bootstrap())"
EXPOSE 3000
USER node
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]
