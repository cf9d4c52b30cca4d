import { BROKER_FAULT_ORDERS, BrokerFaultBed } from './support/broker-fault-bed';
import { expectChainWhole } from './support/chain-outcome';

let bed: BrokerFaultBed;

beforeAll(async () => {
  bed = await BrokerFaultBed.start();
}, 10 * 60_000);

afterAll(async () => {
  await bed?.stop();
});

describe('when every broker is restarted in turn under load', () => {
  it(
    'keeps taking callbacks through each controlled shutdown and applies every order once',
    async () => {
      const traffic = bed.traffic();
      await traffic.dropCouponReplies();
      const nodes = bed.cluster.nodeIds;
      // A share before the roll, one while each broker is down, and the rest after it.
      const share = Math.ceil(BROKER_FAULT_ORDERS / (nodes.length + 2));
      await traffic.drive(share);

      const probe = bed.probeReadiness();
      for (const id of nodes) {
        await bed.terminate(id);
        await traffic.drive(share);
        await bed.restart(id);
        // The next broker goes only once this one's partitions are back in sync.
        await bed.waitForFullIsr();
      }
      await probe.stop();
      await traffic.drive(BROKER_FAULT_ORDERS - (nodes.length + 1) * share);
      await traffic.dropCouponReplies(0);

      await expectChainWhole(bed.chain, traffic);
      expect(probe.notReadyWithTwoBrokersUp()).toEqual([]);
    },
    30 * 60_000,
  ); // waitFor bounds each wait and names what did not happen
});
