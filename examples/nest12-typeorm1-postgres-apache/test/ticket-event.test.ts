import { INestApplication } from '@nestjs/common';
import { InboxOperations } from '@outbox-inbox/inbox';
import { Kafka, KafkaMessage, logLevel, Partitioners } from 'kafkajs';
import { DataSource } from 'typeorm';
import { bootstrap } from '../src/app.js';
import { Ticket } from '../src/ticket.entity.js';
import { TicketsService } from '../src/tickets.service.js';

// Runs under Jest (node --experimental-vm-modules) and under Vitest (--globals): both give
// beforeAll, afterAll, test and expect. The runner (npm run test:example) gives a fresh
// PostgreSQL database, the broker and a topic; the app runs its migrations at start.
const topic = process.env.TICKET_TOPIC!;
const kafka = new Kafka({
  clientId: 'tickets-app-test',
  brokers: process.env.KAFKA_BROKERS!.split(','),
  logLevel: logLevel.NOTHING,
});
let app: INestApplication;

beforeAll(async () => {
  app = await bootstrap(0);
});

afterAll(async () => {
  await app?.close();
});

/** Polls `check` every 50 ms until it holds: the app works in the background. */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** How often the consumer applied the ticket's TicketOpened event. */
async function notified(id: string): Promise<number> {
  const ticket = await app.get(DataSource).manager.findOneByOrFail(Ticket, { id });
  return ticket.notified;
}

/** The messages of aggregate `key` on the topic, read from the beginning until there are `count`. */
async function readTopic(key: string, count: number): Promise<KafkaMessage[]> {
  const consumer = kafka.consumer({ groupId: `reader-${key}-${Date.now()}` });
  const messages: KafkaMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        if (message.key?.toString() === key) messages.push(message);
      },
    });
    await waitFor(async () => messages.length >= count);
  } finally {
    await consumer.disconnect();
  }
  return messages;
}

test('a ticket and its event commit together, and the event is applied once though Kafka delivers it twice', async () => {
  const ticket = await app.get(TicketsService).open('printer on fire');

  // The relay publishes the event; the consumer applies it in the inbox's transaction.
  await waitFor(async () => (await notified(ticket.id)) === 1);

  // The same message again, as a producer retry or a consumer restart would deliver it.
  const [published] = await readTopic(ticket.id, 1);
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const headers = Object.fromEntries(
    Object.entries(published.headers ?? {}).map(([name, value]) => [name, String(value)]),
  );
  await producer.send({
    topic,
    messages: [{ key: published.key, value: published.value, headers }],
  });
  await producer.disconnect();

  // The inbox counts the duplicate and leaves the effect as it was.
  const inbox = app.get(InboxOperations);
  await waitFor(async () => {
    const [delivery] = await inbox.deliveriesOf([
      { aggregateType: 'Ticket', aggregateId: ticket.id },
    ]);
    return delivery?.duplicateCount === 1;
  });
  expect(await notified(ticket.id)).toBe(1);
  expect(await readTopic(ticket.id, 2)).toHaveLength(2);
});
