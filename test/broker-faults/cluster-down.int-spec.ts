import { BROKER_FAULT_ORDERS, holdFault, useBrokerFaultBed } from './support/broker-fault-bed';

/** How long the whole cluster is down: the fault the issue names. */
const DOWN_FOR_MS = 60_000;

const startedBed = useBrokerFaultBed();

describe('when the whole cluster is down for 60 s under load', () => {
  it(
    'answers every callback 2xx from the outbox, and delivers the backlog once it is back',
    async () => {
      const bed = startedBed();
      const { probe } = await bed.underFault(async (traffic) => {
        const third = Math.ceil(BROKER_FAULT_ORDERS / 3);
        await traffic.drive(third);
        // A power cut: every JVM killed at once, no controlled shutdown.
        for (const id of bed.cluster.nodeIds) await bed.kill(id);
        const downAt = Date.now();
        await traffic.drive(third);
        // Those callbacks were committed to the outbox, with no broker to send them to.
        expect(
          await bed.chain.count(
            'order_service',
            "SELECT COUNT(*) AS n FROM t_outbox WHERE status IN ('NEW','SENDING')",
          ),
        ).toBeGreaterThanOrEqual(third);
        await holdFault(downAt, DOWN_FOR_MS);
        await bed.restartAll();
        await traffic.drive(BROKER_FAULT_ORDERS - 2 * third);
        await bed.waitForFullIsr();
      });
      process.stdout.write(`readiness during the outage: ${JSON.stringify(probe.tally())}\n`);
    },
    30 * 60_000,
  ); // waitFor bounds each wait and names what did not happen
});
