import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { ClusterSecurity } from './cluster-security';
import { NodePorts } from './node-properties';

/** One node as the state file records it. */
export interface NodeState {
  /** node.id, 1-based; also the node's number in `kafka:node -- <action> N`. */
  id: number;
  /** The running JVM's pid, or null when the node is stopped. */
  pid: number | null;
  ports: NodePorts;
  /** Its server.properties, kept so that the node starts again with the same storage. */
  config: string;
  log: string;
}

/** What a running cluster is: written by whoever starts it, read by whoever controls it. */
export interface ClusterState {
  /** The folder holding each node's config, storage and log. */
  dir: string;
  clusterId: string;
  /** Bootstrap servers, `127.0.0.1:port` each: the client (PLAINTEXT or SASL_SSL) listeners. */
  brokers: string[];
  nodes: NodeState[];
  /** Present when the cluster is secured: its CA file and every SCRAM user's password. */
  security?: ClusterSecurity;
}

export function readClusterState(file: string): ClusterState {
  return JSON.parse(readFileSync(file, 'utf8')) as ClusterState;
}

/** Written whole to a temporary file and renamed, so a reader never sees half of it. */
export function writeClusterState(file: string, state: ClusterState): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}
