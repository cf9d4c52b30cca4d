import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Pool } from 'mysql2/promise';
import { CouponProviderClient } from '@app/coupon-client';
import { CouponGrant, grantCoupon } from '../raw-consumer-steps';

/** How long a grant may take: the fulfillment-service's default COUPON_PROVIDER_TIMEOUT_MS. */
const GRANT_TIMEOUT_MS = 2_000;

/**
 * The minimal chain's coupon provider: a bare node:http server whose `POST /coupons/grants`
 * runs the provider's grant transaction (claim the idempotency key, insert the coupon, read the
 * key) on its own database, and the fulfillment-service's own coupon client (its keep-alive
 * node:http transport) to call it with. No Nest, no validation.
 */
export class MinimalCouponProvider {
  private constructor(
    private readonly server: Server,
    private readonly client: CouponProviderClient,
  ) {}

  static async start(couponDb: Pool): Promise<MinimalCouponProvider> {
    const server = createServer((request, response) => {
      readBody(request)
        .then(async (body) => {
          const grant = JSON.parse(body) as Omit<CouponGrant, 'key'>;
          const key = String(request.headers['idempotency-key']);
          const connection = await couponDb.getConnection();
          try {
            const couponCode = await grantCoupon(connection, { ...grant, key });
            response.writeHead(201, { 'content-type': 'application/json' });
            const now = new Date().toISOString();
            response.end(
              JSON.stringify({
                couponCode,
                idempotencyKey: key,
                ...grant,
                status: 'GRANTED',
                grantedAt: now,
                revokedAt: null,
              }),
            );
          } finally {
            connection.release();
          }
        })
        .catch((error: unknown) => {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ message: String(error) }));
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new MinimalCouponProvider(
      server,
      new CouponProviderClient({ baseUrl: `http://127.0.0.1:${port}` }),
    );
  }

  /** The fulfillment's call: POST the grant with its idempotency key; the coupon's code. */
  async grant({ key, ...params }: CouponGrant): Promise<string> {
    const result = await this.client.grant(
      { idempotencyKey: key, ...params },
      { timeoutMs: GRANT_TIMEOUT_MS },
    );
    if (result.outcome !== 'granted') throw new Error(`grant ${key}: ${JSON.stringify(result)}`);
    return result.coupon.couponCode;
  }

  async stop(): Promise<void> {
    this.client.close();
    await new Promise<void>((resolve, reject) =>
      this.server.close((error) => (error ? reject(error) : resolve())),
    );
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.once('end', () => resolve(body));
    request.once('error', reject);
  });
}
