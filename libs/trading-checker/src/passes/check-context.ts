import { Kafka } from 'kafkajs';
import { Findings } from '../findings';
import { InvariantTargets } from '../invariant-targets';
import { DeploymentSnapshot } from '../read/deployment-snapshot';
import { KeyHashSet } from '../read/key-hash-set';
import { PartitionRange } from '@outbox-inbox/messaging';

/** What every pass shares: the deployment's snapshots, the topics' positions, the findings. */
export interface CheckContext {
  targets: InvariantTargets;
  deployment: DeploymentSnapshot;
  kafka: Kafka;
  findings: Findings;
  quiescent: boolean;
  /** Rows per page when streaming a table. */
  pageSize: number;
  /** Partition ranges read before the snapshots opened: every message below was committed. */
  rangesBefore: Map<string, PartitionRange[]>;
  /** Partition ranges read after the snapshots opened: every SENT row's message is below. */
  rangesAfter: Map<string, PartitionRange[]>;
  /** Per consumer, its group's committed offsets (read first of all), `topic:partition`. */
  committed: Map<string, Map<string, bigint>>;
  /** Per topic, the event keys of its messages (filled by the topic pass). */
  topicKeys: Map<string, KeyHashSet>;
  /** Per `topic:partition`, the time of its first retained message (filled by the topic pass). */
  firstRetained: Map<string, Date>;
}
