import { createServer, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { CouponClientError } from './coupon-client.error';
import { CouponProviderClient } from './coupon-provider.client';

describe('CouponProviderClient options', () => {
  it.each([
    [{ baseUrl: 'not a url' }],
    [{ baseUrl: 'ftp://host' }],
    [{ baseUrl: 'http://host', defaultTimeoutMs: 0 }],
    [{ baseUrl: 'http://host', defaultTimeoutMs: 1.5 }],
  ])('refuses %j at construction', (options) => {
    expect(() => new CouponProviderClient(options)).toThrow(CouponClientError);
  });

  it('reports a refused connection as an unknown outcome, never as a throw', async () => {
    const client = new CouponProviderClient({ baseUrl: 'http://127.0.0.1:1' });
    await expect(
      client.grant({ idempotencyKey: 'k', userId: 'u', orderId: '1', value: 1, currency: 'EUR' }),
    ).resolves.toMatchObject({ outcome: 'unknown', cause: 'network' });
  });
});

describe('CouponProviderClient connections', () => {
  const grant = { idempotencyKey: 'k', userId: 'u', orderId: '1', value: 1, currency: 'EUR' };
  let server: Server;
  let connections: number;
  let answer: (res: ServerResponse) => void;

  beforeEach(async () => {
    connections = 0;
    server = createServer((req, res) => {
      req.resume();
      req.once('end', () => answer(res));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const baseUrl = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  it('sends consecutive calls over one kept-alive connection', async () => {
    answer = (res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'CPN-1' }));
    };
    const client = new CouponProviderClient({ baseUrl: baseUrl() });
    for (let i = 0; i < 5; i++) {
      await expect(client.grant(grant)).resolves.toEqual({
        outcome: 'granted',
        coupon: { code: 'CPN-1' },
        replayed: false,
      });
    }
    client.close();
    expect(connections).toBe(1);
  });

  it('reports an answer whose body does not complete in time as unknown (timeout)', async () => {
    answer = (res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.write('{"code":'); // the rest never comes
    };
    const client = new CouponProviderClient({ baseUrl: baseUrl() });
    await expect(client.grant(grant, { timeoutMs: 200 })).resolves.toMatchObject({
      outcome: 'unknown',
      cause: 'timeout',
    });
    client.close();
  });
});
