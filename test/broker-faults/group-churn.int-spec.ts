import { waitFor } from '@outbox-inbox/test-kit';
import { ServiceProcess } from '../../scripts/stack/service-process';
import { BROKER_FAULT_ORDERS, useBrokerFaultBed } from './support/broker-fault-bed';

const CONSUMERS = ['fulfillment-service', 'accounting-service'] as const;
type Consumer = (typeof CONSUMERS)[number];

const startedBed = useBrokerFaultBed();

async function ready(instance: ServiceProcess): Promise<void> {
  await waitFor(
    async () =>
      (await fetch(`${instance.url}/health/ready`)
        .then((r) => r.status)
        .catch(() => 0)) === 200,
    { timeoutMs: 120_000, description: `${instance.spec.name} on ${instance.url} ready` },
  );
}

describe('when the consumer groups change under load', () => {
  it(
    'a second instance of each joins, one of each is killed and restarts, the other leaves: every order applied once',
    async () => {
      const bed = startedBed();
      let second: ServiceProcess[] = [];
      await bed.underFault(async (traffic, probe) => {
        const share = Math.ceil(BROKER_FAULT_ORDERS / 4);
        await traffic.drive(share);
        const first = Object.fromEntries(
          CONSUMERS.map((c) => [c, bed.chain.stack.services[c]]),
        ) as Record<Consumer, ServiceProcess>;
        // A second instance of each joins its group while orders flow.
        [second] = await Promise.all([
          Promise.all(CONSUMERS.map((c) => bed.chain.spawn(c))),
          traffic.drive(share),
        ]);
        for (const instance of second) {
          await ready(instance);
          probe.watch(`second ${instance.spec.name}`, instance.url);
        }

        // The first instance of each dies (SIGKILL) and starts again, as an orchestrator would.
        for (const c of CONSUMERS) {
          probe.unwatch(c);
          await first[c].stop('SIGKILL');
        }
        await traffic.drive(share);
        for (const c of CONSUMERS) first[c].start();
        for (const c of CONSUMERS) {
          await first[c].waitHealthy();
          await ready(first[c]);
          probe.watch(c, first[c].url);
        }

        // The second instance of each leaves gracefully (SIGTERM) while orders flow.
        const leaves = second.map(async (instance) => {
          probe.unwatch(`second ${instance.spec.name}`);
          const startedAt = Date.now();
          await instance.stop('SIGTERM', 60_000);
          return `${instance.spec.name} left in ${Date.now() - startedAt} ms`;
        });
        const [left] = await Promise.all([
          Promise.all(leaves),
          traffic.drive(BROKER_FAULT_ORDERS - 3 * share),
        ]);
        process.stdout.write(`graceful leaves: ${left.join(', ')}\n`);
      });
      expect(second.map((s) => s.running)).toEqual([false, false]);
    },
    30 * 60_000,
  ); // waitFor bounds each wait and names what did not happen
});
