# One image for the four services, the ops console and the demo driver; docker-compose.yml picks the command.
# Node 24 is the active LTS (Node 20 reached its end of life in April 2026).
# Stage 1: dependencies for the build (dev included). Install scripts are skipped: the build
# needs none of the native addons, only @swc/core's binary.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts && npm rebuild @swc/core

# Stage 2: build the services and the demo driver (webpack bundles into dist/).
FROM deps AS build
COPY . .
RUN npm run build

# Stage 3: production dependencies, with @confluentinc/kafka-javascript's native addon (the
# relay's KAFKA_CLIENT=confluent) built by the root's postinstall, as npm ci builds it outside
# Docker (scripts/install-confluent-kafka.sh): librdkafka against Debian's OpenSSL and zlib
# (CKJS_LINKING=dynamic), or Confluent's prebuilt binary where it can be downloaded. The other
# install scripts stay skipped. Unlike a developer's npm ci, the image fails if it does not load.
FROM node:24-bookworm-slim AS prod-deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends build-essential python3 libssl-dev zlib1g-dev \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/install-confluent-kafka.sh scripts/
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts \
  && npm run postinstall \
  && node -e 'require("@confluentinc/kafka-javascript")' \
  && npm cache clean --force

# Stage 4: runtime, production dependencies only.
FROM node:24-bookworm-slim AS runtime
# The runtime libraries librdkafka (build/deps/librdkafka.so.1 of the confluent package) links.
RUN apt-get update \
  && apt-get install -y --no-install-recommends libssl3 zlib1g ca-certificates \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production
# The services' V8 flags, as scripts/stack/service-process.ts (SERVICE_NODE_FLAGS) runs them.
ENV NODE_OPTIONS="--max-semi-space-size=8 --max-old-space-size=1024"
WORKDIR /app
COPY package.json package-lock.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
# Overridden per service in docker-compose.yml; `migrate` runs before `serve`.
CMD ["node", "dist/apps/order-service/main.js"]
