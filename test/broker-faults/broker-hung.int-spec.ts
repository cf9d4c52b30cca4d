import { BROKER_FAULT_ORDERS, holdFault, useBrokerFaultBed } from './support/broker-fault-bed';

/** How long the broker hangs: the fault the issue names. */
const HUNG_FOR_MS = 30_000;

const startedBed = useBrokerFaultBed();

describe('when a broker hangs (SIGSTOP) for 30 s under load, its sockets open and silent', () => {
  it(
    'keeps taking callbacks, routes around the hung broker, and applies every order once',
    async () => {
      const bed = startedBed();
      await bed.underFault(async (traffic) => {
        const third = Math.ceil(BROKER_FAULT_ORDERS / 3);
        await traffic.drive(third);
        const hung = await bed.cluster.busiestLeader(bed.orderTopic);
        bed.pause(hung);
        const pausedAt = Date.now();
        await traffic.drive(third);
        await holdFault(pausedAt, HUNG_FOR_MS);
        bed.resume(hung);
        await traffic.drive(BROKER_FAULT_ORDERS - 2 * third);
        await bed.waitForFullIsr();
      });
    },
    30 * 60_000,
  ); // waitFor bounds each wait and names what did not happen
});
