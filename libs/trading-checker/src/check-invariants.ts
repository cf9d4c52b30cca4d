import { Kafka, logLevel } from 'kafkajs';
import { Findings } from './findings';
import { InvariantReport } from './invariant-report';
import { DeploymentSettings, invariantTargets, InvariantTargets } from './invariant-targets';
import { CheckContext } from './passes/check-context';
import { couponPass } from './passes/coupon.pass';
import { ledgerPass } from './passes/ledger.pass';
import { fulfillmentOrphanPass, orderPass } from './passes/order.pass';
import { outboxPass } from './passes/outbox.pass';
import { replayPass } from './passes/replay.pass';
import { topicPass } from './passes/topic.pass';
import { openDeployment } from './read/deployment-snapshot';
import { topicRanges } from '@outbox-inbox/messaging';
import { committedOffsets } from './read/event-stream';

/** How strict a check is, and how it reads. */
export interface CheckOptions {
  /** The deployment is at rest: anything still in flight is a violation. Default false. */
  quiescent?: boolean;
  /** Rows per page when streaming a table. Default 2,000. */
  pageSize?: number;
}

/**
 * Reads a deployment and checks every promise, in memory bounded by a page of rows and a
 * fetch of messages (plus 8 bytes per retained topic message), whatever its age or size.
 *
 * Reads downstream first, so a live system raises no false alarm: the groups' committed
 * offsets, the topics' ends, then one consistent snapshot per database (ledger, fulfillment,
 * coupon provider, orders), then the topics' ends again; the topics are streamed, then the
 * tables page by page. What retention removed (inbox rows below the prune watermark, outbox
 * rows pruned, messages below a partition's low watermark) is counted as not checkable.
 */
export async function checkInvariants(
  deployment: InvariantTargets | (DeploymentSettings & CheckOptions),
  options: CheckOptions = {},
): Promise<InvariantReport> {
  const targets = 'databases' in deployment ? deployment : invariantTargets(deployment);
  const quiescent = options.quiescent ?? ('quiescent' in deployment ? deployment.quiescent : false);
  const kafka = new Kafka({
    clientId: 'invariant-checker',
    brokers: targets.kafkaBrokers,
    ...targets.kafkaSecurity,
    logLevel: logLevel.NOTHING,
  });
  const topics = [targets.topics.order, targets.topics.fulfillment];
  const admin = kafka.admin();
  await admin.connect();
  try {
    const committed = new Map<string, Map<string, bigint>>();
    for (const c of targets.consumers)
      committed.set(
        c.name,
        await committedOffsets(admin, c.groupId, [
          ...c.topics,
          ...(c.retryTopic ? [c.retryTopic] : []),
        ]),
      );
    const rangesBefore = await topicRanges(admin, topics);
    const snapshots = await openDeployment(targets);
    try {
      const context: CheckContext = {
        targets,
        deployment: snapshots,
        kafka,
        findings: new Findings(),
        quiescent: quiescent ?? false,
        pageSize: options.pageSize ?? 2_000,
        rangesBefore,
        rangesAfter: await topicRanges(admin, topics),
        committed,
        topicKeys: new Map(),
        firstRetained: new Map(),
      };
      await topicPass(context);
      await replayPass(context);
      await outboxPass(context);
      await orderPass(context);
      await fulfillmentOrphanPass(context);
      await couponPass(context);
      await ledgerPass(context);
      return context.findings.report();
    } finally {
      await snapshots.close();
    }
  } finally {
    await admin.disconnect();
  }
}
