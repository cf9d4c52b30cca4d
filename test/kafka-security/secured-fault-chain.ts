import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApacheKafkaCluster, clusterClientEnv, waitFor } from '@outbox-inbox/test-kit';
import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  Admin,
  Kafka,
  logLevel,
  ResourcePatternTypes,
} from 'kafkajs';
import { ServiceProcess } from '../../scripts/stack/service-process';
import { ServiceName, TradingStack } from '../support/trading-stack';

/** The services that are Kafka principals of their own. */
export const KAFKA_PRINCIPALS = [
  'order-service',
  'fulfillment-service',
  'accounting-service',
] as const;
export type KafkaPrincipal = (typeof KAFKA_PRINCIPALS)[number];

/**
 * A liveness bound for a fault and its recovery (a service restarted on two busy cores, the
 * relay's and the consumer's backoff after the fault's rounds), not a performance figure.
 */
export const FAULT_MS = 300_000;

/** How long a service may take to be ready: two cores shared by several test runs. */
const SERVICE_START_MS = 150_000;

/** What `GET /health/details` answers, as far as these specs read it. */
export interface Details {
  status: string;
  components: Record<
    string,
    { status: string; reason?: string; deadLetterTopicMessages?: number | null }
  >;
}

/** One ACL of deploy/kafka/acls.json: a PREFIXED pattern on a topic or a group. */
export interface Grant {
  principal: KafkaPrincipal;
  resource: 'topic' | 'group';
  name: string;
  operation: 'READ' | 'WRITE';
}

/**
 * The trading chain on one secured node, as the faults of issue 36's item 7 need it: each
 * service its own principal (its password in a file, every process at LOG_LEVEL=verbose), an
 * admin to take a grant away and give it back, and services replaced by one with other settings
 * on the same port and database, their output kept (in memory, and in test-logs/<log>).
 */
export class SecuredFaultChain {
  /** The output of the replacement processes, by service. */
  private readonly lines = new Map<ServiceName, string[]>();
  private readonly replaced: ServiceProcess[] = [];
  private readonly specs: Partial<Record<ServiceName, ServiceProcess['spec']>> = {};

  private constructor(
    readonly cluster: ApacheKafkaCluster,
    readonly chain: TradingStack,
    readonly admin: Admin,
    /** The run's topic prefix (`t1a2b3c.`): topics and groups begin with it. */
    readonly topicPrefix: string,
    private readonly dir: string,
    private readonly replacementLog: string,
  ) {}

  /**
   * Starts a secured node, applies the operator step (topics and ACLs) for a new prefix, runs
   * `beforeStack` (a grant to take away before any service starts), then the stack.
   */
  static async start(
    name: string,
    beforeStack?: (chain: Pick<SecuredFaultChain, 'deny' | 'topicPrefix'>) => Promise<void>,
  ): Promise<SecuredFaultChain> {
    const dir = mkdtempSync(join(tmpdir(), `${name}-`));
    mkdirSync('test-logs', { recursive: true });
    const replacementLog = join('test-logs', `${name}.restarts.log`);
    writeFileSync(replacementLog, '');
    const cluster = await ApacheKafkaCluster.start({
      nodes: 1,
      dir: mkdtempSync(join(tmpdir(), `${name}-kafka-`)),
      secure: true,
    });
    try {
      return await SecuredFaultChain.startChain(cluster, dir, replacementLog, name, beforeStack);
    } catch (error) {
      // A start that fails leaves no node behind (afterAll has no chain to stop).
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  private static async startChain(
    cluster: ApacheKafkaCluster,
    dir: string,
    replacementLog: string,
    name: string,
    beforeStack?: (chain: Pick<SecuredFaultChain, 'deny' | 'topicPrefix'>) => Promise<void>,
  ): Promise<SecuredFaultChain> {
    const prefix = `t${randomBytes(3).toString('hex')}_`;
    const topicPrefix = prefix.replace(/_/g, '.');
    await cluster.applyAccess(topicPrefix);
    const admin = new Kafka({
      clientId: `${name}-admin`,
      brokers: cluster.brokers,
      logLevel: logLevel.NOTHING,
      ...cluster.clientSecurity(),
    }).admin();
    await admin.connect();
    const partial = { topicPrefix, deny: (grant: Grant) => denyWith(admin, topicPrefix, grant) };
    await beforeStack?.(partial);
    const secrets = { dir };
    const env: Partial<Record<ServiceName, Record<string, string>>> = {};
    for (const principal of KAFKA_PRINCIPALS)
      env[principal] = { ...connectAs(cluster, secrets, principal), LOG_LEVEL: 'verbose' };
    const chain = await TradingStack.start({
      prefix,
      env,
      kafkaBrokers: cluster.brokers,
      kafkaTopicsReady: true,
      startTimeoutMs: SERVICE_START_MS,
    });
    return new SecuredFaultChain(cluster, chain, admin, topicPrefix, dir, replacementLog);
  }

  async stop(): Promise<void> {
    await Promise.all(this.replaced.map((p) => p.stop('SIGKILL')));
    await this.chain.stop();
    await this.admin.disconnect();
    await this.cluster.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Writes `value` to a file only its owner reads; returns its path. */
  secretFile(name: string, value: string): string {
    return secretFile(this.dir, name, value);
  }

  /** A path in this run's own folder (removed at stop), for files a fault needs. */
  path(name: string): string {
    return join(this.dir, name);
  }

  /** The running process of `service`. */
  process(service: ServiceName): ServiceProcess {
    return this.chain.stack.services[service];
  }

  /** Takes `grant` away (as the operators would by mistake): its ACL deleted. */
  async deny(grant: Grant): Promise<void> {
    await denyWith(this.admin, this.topicPrefix, grant);
  }

  /** Gives `grant` back, as acls.json has it. */
  async grant(grant: Grant): Promise<void> {
    await this.admin.createAcls({ acl: [aclOf(this.topicPrefix, grant)] });
  }

  async details(service: ServiceName): Promise<Details> {
    const response = await fetch(`${this.chain.url(service)}/health/details`);
    return (await response.json()) as Details;
  }

  /** The status of `service`'s `GET /health/<check>`. */
  async health(service: ServiceName, check: 'ready' | 'live'): Promise<number> {
    return (await fetch(`${this.chain.url(service)}/health/${check}`)).status;
  }

  /** Waits until `component` of `service`'s /health/details has a reason matching `cause`. */
  async waitForReason(service: ServiceName, component: string, cause: RegExp): Promise<string> {
    let reason = '';
    await waitFor(
      async () => {
        reason = (await this.details(service)).components[component]?.reason ?? '';
        return cause.test(reason);
      },
      { timeoutMs: FAULT_MS, description: `${service}'s ${component} naming ${cause}` },
    );
    return reason;
  }

  /**
   * Replaces the running `service` by one on the same port and database, with the stack's
   * settings and `env` over them; waits until it is ready, or only until it answers HTTP.
   */
  async restart(
    service: ServiceName,
    env: Record<string, string>,
    { untilReady = true }: { untilReady?: boolean } = {},
  ): Promise<ServiceProcess> {
    const current = this.process(service);
    const spec = (this.specs[service] ??= current.spec);
    await current.stop();
    const output = this.lines.get(service) ?? [];
    this.lines.set(service, output);
    const next = new ServiceProcess({ ...spec, env: { ...spec.env, ...env } }, (line) => {
      output.push(line);
      // Beside the stack's log (test-logs/), so a failed run can be read afterwards.
      appendFileSync(this.replacementLog, `${new Date().toISOString()} ${line}\n`);
    });
    this.replaced.push(next);
    this.chain.stack.services[service] = next;
    next.start();
    if (untilReady) await next.waitHealthy(SERVICE_START_MS);
    else
      await waitFor(async () => (await this.health(service, 'live').catch(() => 0)) === 200, {
        timeoutMs: SERVICE_START_MS,
        description: `${service} answering HTTP`,
      });
    return next;
  }

  /** The output of `service`'s replacement processes so far. */
  outputOf(service: ServiceName): string[] {
    return this.lines.get(service) ?? [];
  }

  paidCount(): Promise<number> {
    return this.chain.count(
      'order_service',
      "SELECT COUNT(*) AS n FROM t_order WHERE status = 'PAID'",
    );
  }

  /** Rows of `database`'s outbox by status. */
  async outboxByStatus(
    database: 'order_service' | 'fulfillment_service',
  ): Promise<Record<string, number>> {
    const rows = await this.chain.query<{ status: string; n: number }>(
      database,
      'SELECT status, COUNT(*) AS n FROM t_outbox GROUP BY status',
    );
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }
}

function secretFile(dir: string, name: string, value: string): string {
  const file = join(dir, name);
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return file;
}

/** A service's settings to connect as `user`, its password in a file. */
function connectAs(
  cluster: ApacheKafkaCluster,
  secrets: { dir: string },
  user: string,
): Record<string, string> {
  const { KAFKA_SASL_PASSWORD: password, ...env } = clusterClientEnv(cluster.security!, user);
  return {
    ...env,
    KAFKA_SASL_PASSWORD_FILE: secretFile(secrets.dir, `${user}.kafka-password`, password),
  };
}

function aclOf(topicPrefix: string, grant: Grant) {
  return {
    resourceType: grant.resource === 'topic' ? AclResourceTypes.TOPIC : AclResourceTypes.GROUP,
    resourceName: grant.name.startsWith(topicPrefix) ? grant.name : `${topicPrefix}${grant.name}`,
    resourcePatternType: ResourcePatternTypes.PREFIXED,
    principal: `User:${grant.principal}`,
    host: '*',
    operation: grant.operation === 'READ' ? AclOperationTypes.READ : AclOperationTypes.WRITE,
    permissionType: AclPermissionTypes.ALLOW,
  };
}

async function denyWith(admin: Admin, topicPrefix: string, grant: Grant): Promise<void> {
  const { filterResponses } = await admin.deleteAcls({ filters: [aclOf(topicPrefix, grant)] });
  const deleted = filterResponses.flatMap((r) => r.matchingAcls).length;
  if (deleted !== 1)
    throw new Error(`expected to delete one ACL for ${JSON.stringify(grant)}, deleted ${deleted}`);
}
