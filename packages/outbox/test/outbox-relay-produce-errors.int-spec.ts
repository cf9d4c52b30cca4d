import { KafkaApiKey, KafkaErrorCode, waitFor } from '@outbox-inbox/test-kit';
import { OutboxWriter } from '../src';
import { consumeUntil, statusCounts, writeParcelEvents } from './outbox-test-kit';
import { useRelayTestBed } from './relay-test-bed';

/**
 * [mock-only] Produce errors pushed into the mock's request handling: a timeout answered as an
 * error, and a write whose reply is lost. A real broker answers neither on demand; the same
 * unknown outcome on Apache Kafka is test/chaos/relay-faults.int-spec.ts ("produce requests
 * time out after the broker wrote them"), with replies slowed past the request timeout.
 */
describe('[mock-only] OutboxRelay under injected produce errors', () => {
  const bed = useRelayTestBed('outbox_produce_errors', 'outbox-produce-errors', 10, {
    kafkaMockOnly: true,
  });
  const writer = new OutboxWriter();

  it('absorbs produce requests that time out, with an error or with the reply lost', async () => {
    const mock = bed.env.infra.kafkaMock!;
    const topic = await bed.env.createTopic('outbox.timeouts', 1);
    const keys = await writeParcelEvents(bed.dataSource, writer, 40, 2, 'slow');
    await mock.pushRequestErrors(KafkaApiKey.Produce, KafkaErrorCode.RequestTimedOut, 3);
    for (const broker of [1, 2, 3]) {
      // Error 0 after an rtt above the request timeout: the write happens, the reply is lost.
      await mock.pushBrokerErrors(broker, KafkaApiKey.Produce, KafkaErrorCode.None, 1_500, 1);
    }
    const patient = bed.relay(topic, {
      requestTimeoutMs: 1_000,
      producerRetries: 3,
      batchSize: 20,
    });
    patient.start();
    try {
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 80, {
        timeoutMs: 40_000,
        description: 'all 80 rows SENT despite the timeouts',
      });
    } finally {
      await patient.stop();
      await mock.clearRequestErrors(KafkaApiKey.Produce);
    }
    const messages = await consumeUntil(
      bed.env.kafka,
      topic,
      (m) => new Set(m.map((x) => x.eventKey)).size >= 80,
    );
    // At least once: every event is there; a lost reply may add duplicates (against the mock a
    // batch whose reply was lost is written twice), never a loss.
    expect(new Set(messages.map((m) => m.eventKey))).toEqual(new Set(keys));
    expect(await statusCounts(bed.dataSource)).toEqual({ SENT: 80 });
  });
});
