import { BROKER_FAULT_ORDERS, useBrokerFaultBed } from './support/broker-fault-bed';

const startedBed = useBrokerFaultBed();

describe('when every broker is restarted in turn under load', () => {
  it(
    'keeps taking callbacks through each controlled shutdown and applies every order once',
    async () => {
      const bed = startedBed();
      await bed.underFault(async (traffic) => {
        const nodes = bed.cluster.nodeIds;
        // A share before the roll, one while each broker is down, and the rest after it.
        const share = Math.ceil(BROKER_FAULT_ORDERS / (nodes.length + 2));
        await traffic.drive(share);
        for (const id of nodes) {
          await bed.terminate(id);
          await traffic.drive(share);
          await bed.restart(id);
          // The next broker goes only once this one's partitions are back in sync.
          await bed.waitForFullIsr();
        }
        await traffic.drive(BROKER_FAULT_ORDERS - (nodes.length + 1) * share);
      });
    },
    30 * 60_000,
  ); // waitFor bounds each wait and names what did not happen
});
