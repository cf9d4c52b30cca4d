import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InboxTestHarness } from '@outbox-inbox/inbox/testing';
import { OutboxTestHarness } from '@outbox-inbox/outbox/testing';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module.js';
import { Ticket } from '../src/ticket.entity.js';
import { TicketsService } from '../src/tickets.service.js';

// The app's own module and command, its event carried in process by the packages' test kit
// (/testing, which Jest's ES module mode and Vitest load alike, without @jest/globals). The app
// is created, not initialised: its relay, which starts at bootstrap, stays stopped, so
// OutboxTestHarness relays the rows; the inbox consumer never starts, so InboxTestHarness
// delivers them. The runner gives the database (the app's migrations run as TypeORM connects)
// and the Kafka settings the modules check; nothing here contacts Kafka. The test files run one
// at a time (package.json): a started app's relay would publish every due row of the database.
let app: INestApplication;
let outbox: OutboxTestHarness;
let inbox: InboxTestHarness;

beforeAll(async () => {
  app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  outbox = OutboxTestHarness.create(app);
  inbox = InboxTestHarness.create(app);
});

afterAll(async () => {
  await app?.close();
});

/** How often the consumer applied the ticket's TicketOpened event. */
async function notified(id: string): Promise<number> {
  const ticket = await app.get(DataSource).manager.findOneByOrFail(Ticket, { id });
  return ticket.notified;
}

test('the command writes TicketOpened to the outbox, the relay publishes it, the consumer applies it once', async () => {
  const ticket = await app.get(TicketsService).open('printer on fire');

  const written = await outbox.written({ aggregateId: ticket.id });
  expect(written).toEqual([
    expect.objectContaining({
      eventType: 'TicketOpened',
      aggregateType: 'Ticket',
      aggregateVersion: 1,
      payload: { title: 'printer on fire' },
    }),
  ]);
  const published = await outbox.relay();
  expect(published.map((m) => [m.topic, m.key])).toEqual([[process.env.TICKET_TOPIC, ticket.id]]);
  expect(published[0].envelope).toEqual(written[0]);

  expect(await inbox.deliver(published[0].envelope)).toEqual({ outcome: 'applied', drained: 0 });
  expect(await notified(ticket.id)).toBe(1);
  // Delivered again, as after a producer retry or a consumer restart: taken in once only.
  expect(await inbox.deliver(published[0].envelope)).toEqual({ outcome: 'duplicate', drained: 0 });
  expect(await notified(ticket.id)).toBe(1);
});

test('a TicketOpened with an invalid payload is dead-lettered and applies nothing', async () => {
  const ticket = await app.get(TicketsService).open('paper jam');
  const published = await outbox.relay();
  const event = published.find((m) => m.key === ticket.id)!.envelope;

  expect(await inbox.deliver({ ...event, payload: { title: '' } })).toMatchObject({
    outcome: 'dead-lettered',
    errorCode: 'INVALID_EVENT',
  });
  expect(await notified(ticket.id)).toBe(0);
  expect(inbox.deadLetters.map((d) => d.key)).toEqual([ticket.id]);
  // No inbox row was written for it: the valid event is news, not a duplicate.
  expect(await inbox.deliver(event)).toEqual({ outcome: 'applied', drained: 0 });
  expect(await notified(ticket.id)).toBe(1);
});
