# One image for the four services, the ops console and the demo driver; docker-compose.yml picks the command.
# Node 24 is the active LTS (Node 20 reached its end of life in April 2026).
# Stage 1: dependencies (dev included: node-rdkafka builds librdkafka for the no-Docker mock,
# which the images do not use, so its install script is skipped here).
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts && npm rebuild @swc/core

# Stage 2: build the services and the demo driver (webpack bundles into dist/).
FROM deps AS build
COPY . .
RUN npm run build

# Stage 3: runtime, production dependencies only.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
# The services' V8 flags, as scripts/stack/service-process.ts (SERVICE_NODE_FLAGS) runs them.
ENV NODE_OPTIONS="--max-semi-space-size=8 --max-old-space-size=1024"
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node
# Overridden per service in docker-compose.yml; `migrate` runs before `serve`.
CMD ["node", "dist/apps/order-service/main.js"]
