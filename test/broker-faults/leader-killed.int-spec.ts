import { BROKER_FAULT_ORDERS, holdFault, useBrokerFaultBed } from './support/broker-fault-bed';

/** How long the killed broker stays dead: the fault the issue names. */
const DEAD_FOR_MS = 10_000;

const startedBed = useBrokerFaultBed();

describe('when the broker leading most order partitions is killed under load', () => {
  it(
    'keeps taking callbacks, elects new leaders, and applies every order once after it returns',
    async () => {
      const bed = startedBed();
      await bed.underFault(async (traffic) => {
        const third = Math.ceil(BROKER_FAULT_ORDERS / 3);
        await traffic.drive(third);
        const leader = await bed.cluster.busiestLeader(bed.orderTopic);
        await bed.kill(leader);
        const killedAt = Date.now();
        await traffic.drive(third);
        await holdFault(killedAt, DEAD_FOR_MS);
        await bed.restart(leader);
        await traffic.drive(BROKER_FAULT_ORDERS - 2 * third);
        await bed.waitForFullIsr();
      });
    },
    30 * 60_000,
  ); // waitFor bounds each wait and names what did not happen
});
