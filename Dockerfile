# BKE Online server image: built in one stage, run from another that holds only the compiled server,
# the built web app, the migrations and the server's production dependencies, as a non-root user.
# Not built on the development machines (they run no Docker engine); `docker compose config` checks
# the compose file that uses it.
#
# Node 24, a long-term-support line maintained until April 2028 (Node 20's ended in April 2026).
# The code still runs on Node 20.19 and later, for contributors (docs/development.md, "The two commands").

FROM node:24-bookworm-slim AS build
WORKDIR /src
RUN npm install -g pnpm@10.34.9
COPY . .
# Installs everything, generates the Prisma client, builds apps/web/dist and apps/server/dist.
RUN node -e "import('./scripts/lib/bootstrap.mjs').then((m) => m.bootstrap())"
# The production set (scripts/lib/production.mjs, which a test starts the server from): the compiled
# server, its production dependencies alone, the built web app and the migrations.
RUN node -e "import('./scripts/lib/production.mjs').then((m) => m.assembleProduction('/out'))"

FROM node:24-bookworm-slim AS runtime
# The image runs behind a load balancer: on SIGTERM readiness answers 503 for 7 s before the
# server drains, as deploy/haproxy.cfg takes a server out after two failed checks 3 s apart.
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 SHUTDOWN_NOTICE_SECONDS=7
WORKDIR /app
COPY --from=build /out ./
USER node
EXPOSE 3000
# Readiness: the database answers and the process is not shutting down.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The server's Node.js flags, as scripts/lib/server-flags.mjs gives them (and says why).
CMD ["node", "--max-semi-space-size=32", "--enable-source-maps", "apps/server/dist/main.js"]
