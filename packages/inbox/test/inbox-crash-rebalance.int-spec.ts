import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parcelEvent, toMessage, waitFor } from '@app/test-kit';
import { committedTotal } from './fixtures/kafka-reads';
import { InboxTestAppOptions, startInboxTestApp, useInboxTestBed } from './fixtures/inbox-test-app';
import { TestBehaviour } from './fixtures/test-consumer.controller';

const ROOT = join(__dirname, '../../..');

/** Runs the crash-after-commit consumer process; resolves with the signal that ended it. */
function runCrashingConsumer(options: InboxTestAppOptions): Promise<NodeJS.Signals | null> {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(__dirname, 'fixtures/crash-after-commit.child.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, INBOX_CHILD_CONFIG: JSON.stringify(options) },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`crashing consumer did not crash in time: ${stderr}`));
    }, 45_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === null) reject(new Error(`consumer exited with ${code}: ${stderr}`));
      else resolve(signal);
    });
  });
}

describe('Inbox under crashes and rebalances', () => {
  const bed = useInboxTestBed('inbox_crash');

  async function effects(): Promise<
    Array<{ event_key: string; aggregate_id: string; aggregate_version: number; instance: string }>
  > {
    return (await bed.dataSource.query(
      'SELECT event_key, aggregate_id, aggregate_version, instance FROM t_test_effect ORDER BY id',
    )) as Array<{
      event_key: string;
      aggregate_id: string;
      aggregate_version: number;
      instance: string;
    }>;
  }

  describe('when the process is killed after the DB commit and before the offset commit', () => {
    it('gets the event again and absorbs it: one effect', async () => {
      const { topic, options } = await bed.channel('inbox.crash', 1);
      const event = parcelEvent('registered', 'crash-1', 1);
      await bed.producer.send({ topic, messages: [toMessage(event)] });

      expect(await runCrashingConsumer(options)).toBe('SIGKILL');
      const afterCrash = await effects();
      expect(afterCrash.filter((e) => e.event_key === event.eventKey)).toHaveLength(1);
      expect(await committedTotal(bed.env.kafka, options.consumer, topic)).toBe(0);

      const app = await startInboxTestApp(options);
      try {
        await waitFor(
          async () => (await committedTotal(bed.env.kafka, options.consumer, topic)) === 1,
          {
            description: 'the redelivered event acknowledged',
            timeoutMs: 40_000,
          },
        );
        expect(app.metrics.outcomes.duplicate).toBe(1);
        expect((await effects()).filter((e) => e.event_key === event.eventKey)).toHaveLength(1);
      } finally {
        await app.close();
      }
    });
  });

  describe('when a second consumer joins the group mid-stream and the first one leaves', () => {
    it('loses nothing, applies nothing twice, and keeps each parcel in version order', async () => {
      const { topic, options } = await bed.channel('inbox.rebalance', 4);
      const parcels = Array.from({ length: 20 }, (_, i) => `rb-${i}`);
      const phase = (from: number, to: number) =>
        parcels.flatMap((id) =>
          Array.from({ length: to - from + 1 }, (_, v) => parcelEvent('shipped', id, from + v)),
        );
      const sent = [...phase(1, 4), ...phase(5, 8), ...phase(9, 10)];
      const count = async (instance?: string) =>
        (await effects()).filter(
          (e) => e.aggregate_id.startsWith('rb-') && (!instance || e.instance === instance),
        ).length;

      await bed.producer.send({ topic, messages: phase(1, 4).map(toMessage) });
      const first = await startInboxTestApp({ ...options, behaviour: named('a') });
      let second: Awaited<ReturnType<typeof startInboxTestApp>> | undefined;
      try {
        await waitFor(async () => (await count('a')) >= 10, { description: 'a consumed some' });
        second = await startInboxTestApp({ ...options, behaviour: named('b') });
        await bed.producer.send({ topic, messages: phase(5, 8).map(toMessage) });
        await waitFor(async () => (await count('b')) > 0, {
          description: 'b took over partitions',
          timeoutMs: 40_000,
        });
        await first.close();
        await bed.producer.send({ topic, messages: phase(9, 10).map(toMessage) });
        await waitFor(async () => (await count()) >= sent.length, {
          description: 'every event applied',
          timeoutMs: 40_000,
        }).catch(async (error: Error) => {
          const diag = {
            a: first.metrics,
            b: second?.metrics,
            counts: [await count('a'), await count('b')],
            committed: await committedTotal(bed.env.kafka, options.consumer, topic),
            parked: await bed.dataSource.query(
              'SELECT aggregate_id, aggregate_version FROM t_inbox_parked',
            ),
            stats: await second?.operations.stats(),
          };
          throw new Error(`${error.message}\n${JSON.stringify(diag)}`);
        });
        await waitFor(
          async () =>
            (await committedTotal(bed.env.kafka, options.consumer, topic)) === sent.length,
          {
            description: 'every delivery acknowledged',
          },
        );

        const applied = (await effects()).filter((e) => e.aggregate_id.startsWith('rb-'));
        expect(applied.map((e) => e.event_key).sort()).toEqual(sent.map((e) => e.eventKey).sort());
        for (const id of parcels) {
          const versions = applied
            .filter((e) => e.aggregate_id === id)
            .map((e) => Number(e.aggregate_version));
          expect(versions).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
        }
      } finally {
        await first.close().catch(() => undefined);
        await second?.close();
      }
    });
  });
});

function named(instance: string): TestBehaviour {
  const behaviour = new TestBehaviour();
  behaviour.instance = instance;
  behaviour.workMs = 15;
  return behaviour;
}
