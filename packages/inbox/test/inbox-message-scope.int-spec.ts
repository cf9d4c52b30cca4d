import { MessageTracing, openTelemetryTracing } from '@outbox-inbox/messaging';
import { parcelEvent, toMessage, waitFor } from '@outbox-inbox/test-kit';
import { InboxMessageScope } from '../src';
import { useInboxTestBed } from './fixtures/inbox-test-app';

/** Notes the event key of each message once its settlement, run inside, has finished. */
class RecordingScope extends InboxMessageScope {
  readonly settled: string[] = [];

  async run<T>(headers: Readonly<Record<string, string>>, settle: () => Promise<T>): Promise<T> {
    const result = await settle();
    this.settled.push(headers['event-key']);
    return result;
  }
}

describe("The app's InboxMessageScope", () => {
  const bed = useInboxTestBed('inbox_message_scope');

  it('wraps the settlement of every message, applied or dead-lettered, with its headers', async () => {
    const { topic, options } = await bed.channel('inbox.scope', 1);
    const applied = parcelEvent('registered', 'scope-1', 1);
    const rejected = parcelEvent('registered', 'scope-2', 1);
    const scope = new RecordingScope();
    const app = await bed.startApp({ ...options, messageScope: scope });
    app.behaviour.rejected.add(rejected.eventKey);
    try {
      await bed.producer.send({ topic, messages: [applied, rejected].map((e) => toMessage(e)) });
      await waitFor(() => scope.settled.length === 2, { description: 'both messages settled' });
      expect(scope.settled).toEqual([applied.eventKey, rejected.eventKey]);
      // Each run ended only once its message was settled: applied, or dead-lettered.
      expect(await bed.effectVersions('scope-1')).toEqual([1]);
      expect(app.metrics.deadLettered).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('is run inside the tracing that InboxModule is given, with the same headers', async () => {
    const { topic, options } = await bed.channel('inbox.scope.tracing', 1);
    const event = parcelEvent('registered', 'scope-3', 1);
    const received: string[] = [];
    const tracing: MessageTracing = {
      ...openTelemetryTracing,
      receive: (headers, settle) => {
        received.push(headers['event-key']);
        return settle();
      },
    };
    const scope = new RecordingScope();
    const app = await bed.startApp({ ...options, messageScope: scope, inbox: { tracing } });
    try {
      await bed.producer.send({ topic, messages: [toMessage(event)] });
      await waitFor(() => scope.settled.length === 1, { description: 'the message settled' });
      expect(received).toEqual([event.eventKey]);
      expect(await bed.effectVersions('scope-3')).toEqual([1]);
    } finally {
      await app.close();
    }
  });
});
