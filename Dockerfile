# One image for both jobs of the package: `docker run IMAGE serve` runs the reference
# implementation, `docker run IMAGE certify ...` certifies a target and writes its report to a
# mounted folder. Build it from an installed checkout (`npm ci` first): the image carries the
# dependency tree of package-lock.json, pruned of development packages, and needs no registry.
#
# BASE_IMAGE: any image with node 20+ (and npm) on PATH and a `node` user. Where no registry is
# reachable, scripts/build-local-images.sh builds one from this machine's node.
ARG BASE_IMAGE=node:20-bookworm-slim

FROM ${BASE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
COPY node_modules ./node_modules
RUN ["npm", "prune", "--omit=dev", "--offline", "--no-audit", "--no-fund"]

FROM ${BASE_IMAGE}
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY bin ./bin
COPY harness ./harness
COPY reference-impl ./reference-impl
COPY schemas ./schemas
COPY requirements ./requirements
COPY generators ./generators
COPY suites ./suites
COPY docker ./docker
# The default report folder (reports/<run id>) must be writable by the unprivileged user.
RUN ["node", "-e", "require('fs').mkdirSync('/app/reports'); require('fs').chownSync('/app/reports', 1000, 1000)"]

# Configuration comes from the environment (see `apc help serve`); flags given to the container win.
ENV NODE_ENV=production \
    APC_REF_HOST=0.0.0.0 \
    APC_REF_CONTROL_PLANE_PORT=8100 \
    APC_REF_AGENT_SERVER_PORT=8123 \
    APC_REF_TRACING_PORT=8200
EXPOSE 8100 8123 8200
USER node
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["node", "/app/docker/healthcheck.mjs"]
ENTRYPOINT ["node", "/app/bin/apc.mjs"]
CMD ["serve"]
