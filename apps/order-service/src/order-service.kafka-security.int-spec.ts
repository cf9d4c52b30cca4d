import { createServer, Server, Socket } from 'node:net';
import { AddressInfo } from 'node:net';
import {
  startTestEnvironment,
  TEST_OPS_API_TOKEN,
  TestEnvironment,
  waitFor,
} from '@outbox-inbox/test-kit';
import { request, RunningOrderService, startOrderService } from '../test/order-service.harness';

/** The first bytes of each connection a Kafka client opened to a listener that never answers. */
class FirstBytes {
  readonly seen: Buffer[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly server: Server = createServer((socket) => {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', (chunk: Buffer) => this.seen.push(chunk));
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The client id of a plaintext Kafka request: after size, api key, version, correlation id. */
  static clientIdOf(request: Buffer): string {
    const length = request.readInt16BE(12);
    return request.subarray(14, 14 + length).toString('utf8');
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Issue 36, item 3: KAFKA_SSL reaches every Kafka client of the process, the relay's producer
 * and the readiness probe's admin alike. A listener that never answers records the first bytes
 * of each connection: a TLS ClientHello (record type 0x16) with KAFKA_SSL=true, a Kafka request
 * naming its client id without it.
 */
describe('order-service: the Kafka clients and KAFKA_SSL', () => {
  let env: TestEnvironment;
  let service: RunningOrderService | undefined;
  let listener: FirstBytes | undefined;

  beforeAll(async () => {
    env = await startTestEnvironment();
  });

  afterEach(async () => {
    await service?.close();
    service = undefined;
    await listener?.close();
    listener = undefined;
  });

  afterAll(async () => {
    await env?.stop();
  });

  async function startAgainst(variables: Record<string, string>): Promise<FirstBytes> {
    listener = new FirstBytes();
    const brokers = await listener.listen();
    service = await startOrderService(env, {
      outboxRelay: true,
      variables: { KAFKA_BROKERS: brokers, ...variables },
    });
    // An order gives the relay a row to send; /health/details asks the probe about the broker.
    await request(`${service.baseUrl}/orders`, {
      body: JSON.stringify({ userId: 'u-tls', amount: 100, currency: 'EUR' }),
    });
    await askTheProbe();
    return listener;
  }

  async function askTheProbe(): Promise<void> {
    await request(`${service!.baseUrl}/health/details`, {
      headers: { authorization: `Bearer ${TEST_OPS_API_TOKEN}` },
    });
  }

  it('sends a Kafka request naming each client in plaintext, without KAFKA_SSL', async () => {
    const seen = await startAgainst({});
    await waitFor(async () => {
      await askTheProbe();
      const ids = new Set(seen.seen.map(FirstBytes.clientIdOf));
      return ids.has('order-service') && ids.has('order-service-health');
    });
  });

  it('opens every connection with a TLS handshake with KAFKA_SSL=true', async () => {
    const seen = await startAgainst({ KAFKA_SSL: 'true' });
    // The stimulus under which the test above sees both clients connect; here none of them
    // sends a plaintext byte.
    await waitFor(async () => {
      await askTheProbe();
      return seen.seen.length >= 3;
    });
    expect(seen.seen.map((first) => first[0])).toEqual(seen.seen.map(() => 0x16));
  });
});
