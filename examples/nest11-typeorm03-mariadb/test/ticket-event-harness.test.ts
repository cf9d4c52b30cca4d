import { strict as assert } from 'node:assert';
import { after, before, test } from 'node:test';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InboxTestHarness } from '@outbox-inbox/inbox/testing';
import { OutboxTestHarness } from '@outbox-inbox/outbox/testing';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { Ticket } from '../src/ticket.entity';
import { TicketsService } from '../src/tickets.service';

// The app's own module and command, its event carried in process by the packages' test kit
// (/testing, which node:test loads as well as Jest or Vitest). The app is created, not
// initialised: its relay, which starts at bootstrap, stays stopped, so OutboxTestHarness relays
// the rows; the inbox consumer never starts, so InboxTestHarness delivers them. The runner gives
// the database, its migrations run, and the Kafka settings the modules check; nothing here
// contacts Kafka. The test files run one at a time (package.json): a started app's relay would
// publish every due row of the database.
let app: INestApplication;
let outbox: OutboxTestHarness;
let inbox: InboxTestHarness;

before(async () => {
  app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  outbox = OutboxTestHarness.create(app);
  inbox = InboxTestHarness.create(app);
});

after(async () => {
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
  assert.deepEqual(
    written.map((e) => [e.eventType, e.aggregateType, e.aggregateVersion, e.payload]),
    [['TicketOpened', 'Ticket', 1, { title: 'printer on fire' }]],
  );
  const published = await outbox.relay();
  assert.deepEqual(
    published.map((m) => [m.topic, m.key]),
    [[process.env.TICKET_TOPIC, ticket.id]],
  );
  assert.deepEqual(published[0].envelope, written[0]);

  assert.deepEqual(await inbox.deliver(published[0].envelope), { outcome: 'applied', drained: 0 });
  assert.equal(await notified(ticket.id), 1);
  // Delivered again, as after a producer retry or a consumer restart: taken in once only.
  assert.deepEqual(await inbox.deliver(published[0].envelope), {
    outcome: 'duplicate',
    drained: 0,
  });
  assert.equal(await notified(ticket.id), 1);
});

test('a TicketOpened with an invalid payload is dead-lettered and applies nothing', async () => {
  const ticket = await app.get(TicketsService).open('paper jam');
  const published = await outbox.relay();
  const event = published.find((m) => m.key === ticket.id)!.envelope;

  const result = await inbox.deliver({ ...event, payload: { title: '' } });
  assert.deepEqual(
    [result.outcome, 'errorCode' in result && result.errorCode],
    ['dead-lettered', 'INVALID_EVENT'],
  );
  assert.equal(await notified(ticket.id), 0);
  assert.deepEqual(
    inbox.deadLetters.map((d) => d.key),
    [ticket.id],
  );
  // No inbox row was written for it: the valid event is news, not a duplicate.
  assert.deepEqual(await inbox.deliver(event), { outcome: 'applied', drained: 0 });
  assert.equal(await notified(ticket.id), 1);
});
