# The API server and `pbs` in one image. Node 24 runs the TypeScript sources as they are (type
# stripping), so there is no build step: the image holds src/, generated/ and the runtime
# dependencies (`npm ci --omit=dev`: the server needs none of the devDependencies;
# test/deployment.test.ts checks that every module it loads is in the image).
#   docker build -t project-builder-api .
#   docker run -p 8080:8080 -p 8081:8081 -v pbs-data:/data project-builder-api     # embedded database in /data
#   docker run -e DATABASE_URL=… -e REDIS_URL=… -e MIGRATE_ON_START=false project-builder-api   # a replica
#   docker run -e DATABASE_URL=… project-builder-api pbs migrate
FROM node:24-bookworm-slim

ENV PORT=8080 \
    APPS_PORT=8081 \
    HOST=0.0.0.0 \
    DATA_DIR=/data

WORKDIR /app
COPY package.json package-lock.json ./
# (npm ci's `prepare`, which saves a template of the embedded database, skips here: a new data
# directory is then made by initdb once, a few seconds, rather than the image carrying 40 MB more.)
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY generated ./generated
COPY src ./src
# `pbs` on the PATH; DATA_DIR (the embedded database and the admin socket) owned by the base image's
# unprivileged user, `node` (uid 1000), which the server runs as.
RUN ln -s /app/src/cli/pbs.ts /usr/local/bin/pbs && mkdir -p /data && chown node:node /data
USER node

EXPOSE 8080 8081
# Liveness: the process answers. Readiness (/readyz: the database answers and the process is not
# draining) is what a load balancer or orchestrator routes by; see deploy/haproxy.cfg.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# SIGTERM drains: the server stops accepting, finishes the requests and jobs in hand, then exits.
STOPSIGNAL SIGTERM
CMD ["node", "src/main.ts"]
