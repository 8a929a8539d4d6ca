# Comptoir's image: the built server on Node 20, run as the unprivileged `node` user.
# docker-compose.yml runs two of it behind nginx (docs/deployment.md, "Reference deployment").
# `npm run test:image` builds it with buildah and starts it (docs/operations.md, "The container
# image"). No `# syntax=` line: it would fetch a Dockerfile frontend image by a moving tag, and
# nothing here needs more than the builder's own.
#
# The base, an exact tag in all three stages (Node 20.20.2, the npm 10.8.2 it ships, Debian 12):
# a rebuild gets the same Node. To pin the bytes too, append the digest where a registry is
# reachable (`FROM node:20.20.2-bookworm-slim@sha256:…`, docs/operations.md).

# --- Build: every dependency, then `react-router build` (client, server bundle, build/server/main.js).
FROM node:20.20.2-bookworm-slim AS build
# Behind a TLS-inspecting proxy, the path of its CA bundle, mounted for the build only
# (scripts/test-image.mjs does it): npm reaches the registry with it. Unset otherwise. An ARG,
# not an ENV: the image keeps no trace of it.
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the lockfile's only install scripts are esbuild's (a check of the binary its
# platform package already brings) and vnu-jar's (a Java runtime downloaded for the tests' HTML
# checker, of no use in an image, and out of reach where only the npm registry is).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# --- Runtime dependencies only (sharp's and PGlite's native or wasm parts included).
FROM node:20.20.2-bookworm-slim AS runtime-deps
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# --- Runtime: what build/server/main.js reads at run time, from the working directory: the
# build (build/client is served, build/server/index.js rendered), the migrations it applies
# at start (drizzle/), package.json ("type": "module") and node_modules (the PDF fonts
# come from dejavu-fonts-ttf there).
FROM node:20.20.2-bookworm-slim
# MALLOC_ARENA_MAX: two glibc malloc arenas instead of 8 per core, as `npm start` sets it: sharp's
# threads otherwise leave memory fragmented behind them (docs/performance.md).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=runtime-deps /app/node_modules ./node_modules
COPY package.json ./
COPY drizzle ./drizzle
COPY --from=build /app/build ./build
# The data directory: PGlite's files when DATABASE_URL is unset, uploaded images without S3,
# generated secrets without AUTH_SECRET. The only place the server writes.
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
# Liveness: the process answers (/healthz does not look at the database: an outage must not get
# every instance restarted; /readyz is for routing). Node has fetch; the image has no curl.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Not `npm run serve`: cross-env is a dev dependency, and npm would sit between the server and
# the SIGTERM of `docker stop` (the server's graceful shutdown).
CMD ["node", "build/server/main.js"]
