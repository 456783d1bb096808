# Container image of animal-store. CI builds and runs it on every run (scripts/container-test.sh).
# Build: docker build -t animal-store .     Run it: docs/operations.md, "Containers".
FROM node:24-bookworm-slim AS build
WORKDIR /app
# The manifests first, so that the dependency layer is only rebuilt when they change. .npmrc
# belongs to them: it turns off install scripts, so npm does not run node-gyp on better-sqlite3
# (its binding ships prebuilt, Node-API), which would need Python, make and a compiler: this
# image has none. A workspace of the repository adds its package.json to this line
# (test/dockerfile.test.ts checks).
COPY package.json package-lock.json .npmrc ./
COPY client/package.json ./client/
RUN npm ci --no-audit --no-fund
# Then everything the build reads (.dockerignore keeps out node_modules, dist, data, secrets).
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=sqlite:/data/animal-store.db
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The service handles SIGTERM itself (drains requests, closes the database, exits 0) within
# SHUTDOWN_TIMEOUT_MS (10 s by default): give `docker stop` more (-t 15, compose's stop_grace_period).
# No first-start key: a container's stdout is a log stream, and a key must not land in logs.
# Make keys with: docker run --rm -v DATA:/data IMAGE keys create --name NAME
# A young generation of 8 MB per semi-space (Node 24 grows it to 32): peak RSS under load stays
# below 150 MB, at the same speed (docs/performance.md).
ENTRYPOINT ["node", "--max-semi-space-size=8", "dist/cli.js"]
CMD ["serve", "--no-bootstrap-key"]
