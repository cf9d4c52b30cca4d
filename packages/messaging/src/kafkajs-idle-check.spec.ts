import { installKafkajsIdleCheck } from './kafkajs-idle-check';

// kafkajs's own request queue, the class every broker connection uses.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => Queue;

interface Queue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  push(request: object): void;
  fulfillRequest(response: { correlationId: number; payload: Buffer; size: number }): void;
  maybeThrottle(ms: number): void;
  destroy(): void;
}

const logger = { debug: () => undefined, warn: () => undefined, error: () => undefined };
const logged = { namespace: () => logger };

function queue(): Queue {
  return new RequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'spec',
    broker: 'localhost:9092',
    logger: logged.namespace(),
    isConnected: () => true,
  });
}

/** A request as kafkajs's Connection pushes it; `sent` records that it went out. */
function request(correlationId: number, sent: number[]) {
  return {
    entry: {
      correlationId,
      apiKey: 0,
      apiName: 'Spec',
      apiVersion: 0,
      resolve: () => undefined,
      reject: () => undefined,
    },
    expectResponse: true,
    requestTimeout: 30_000,
    sendRequest: () => sent.push(correlationId),
  };
}

describe('installKafkajsIdleCheck', () => {
  const queues: Queue[] = [];
  afterEach(() => queues.splice(0).forEach((q) => q.destroy()));

  beforeAll(() => expect(installKafkajsIdleCheck()).toBe(true));

  it('leaves no timer behind once an idle connection got its response', () => {
    const q = queue();
    queues.push(q);
    const sent: number[] = [];
    q.push(request(1, sent));
    q.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
    expect(sent).toEqual([1]);
    // Without the fix kafkajs schedules a check here that schedules the next one, forever.
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('still sends a request queued behind the in-flight limit when the response comes', () => {
    const q = queue();
    queues.push(q);
    const sent: number[] = [];
    q.push(request(1, sent));
    q.push(request(2, sent));
    expect(sent).toEqual([1]);
    q.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
    expect(sent).toEqual([1, 2]);
  });

  it('still sends a request queued during a throttle once the throttle is over', async () => {
    const q = queue();
    queues.push(q);
    const sent: number[] = [];
    q.throttledUntil = Date.now() + 30;
    q.push(request(1, sent));
    expect(sent).toEqual([]);
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (sent.length > 0) {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    expect(sent).toEqual([1]);
  });

  it('installs once', () => {
    expect(installKafkajsIdleCheck()).toBe(true);
    const q = queue();
    queues.push(q);
    q.push(request(1, []));
    q.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
    expect(q.throttleCheckTimeoutId).toBeNull();
  });
});
