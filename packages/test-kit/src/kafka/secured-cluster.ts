import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApacheKafkaCluster } from '../apache-kafka';

/** A secured Apache Kafka cluster for a test file, and how to let go of it. */
export interface SecuredClusterLease {
  cluster: ApacheKafkaCluster;
  /** True when it is the run's shared cluster (CI's): the file must not break its settings. */
  shared: boolean;
  /** Stops the cluster if the file started it; leaves the shared one running. */
  release(): Promise<void>;
}

/**
 * The run's secured cluster, when KAFKA_CLUSTER_STATE names one (CI's three nodes, or the jest
 * global setup's KAFKA_SECURE=true), else a secured node of the file's own: so a laptop run with
 * the mock or a PLAINTEXT cluster still proves what a secured cluster refuses. A file that must
 * break the cluster's own settings (its CA, its listeners) starts its own, always.
 */
export async function securedClusterForTest(label: string): Promise<SecuredClusterLease> {
  const file = process.env.KAFKA_CLUSTER_STATE;
  if (file) {
    const cluster = ApacheKafkaCluster.attach(file);
    if (cluster.security) return { cluster, shared: true, release: async () => undefined };
  }
  const cluster = await ApacheKafkaCluster.start({
    nodes: 1,
    dir: mkdtempSync(join(tmpdir(), `${label}-kafka-`)),
    secure: true,
  });
  return { cluster, shared: false, release: () => cluster.stop() };
}
