import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** Kafka protocol API keys that tests inject errors into. */
export const KafkaApiKey = {
  Produce: 0,
  Fetch: 1,
  ListOffsets: 2,
  Metadata: 3,
  OffsetCommit: 8,
  OffsetFetch: 9,
  FindCoordinator: 10,
  JoinGroup: 11,
  Heartbeat: 12,
  SyncGroup: 14,
  InitProducerId: 22,
} as const;

/** Kafka protocol error codes that tests inject. */
export const KafkaErrorCode = {
  None: 0,
  NotLeaderForPartition: 6,
  RequestTimedOut: 7,
  NetworkException: 13,
  CoordinatorNotAvailable: 15,
  NotEnoughReplicas: 19,
  /** librdkafka's local "transport" error: the mock drops the connection. */
  Transport: -195,
} as const;

export const KAFKA_MOCK_BINARY = join(__dirname, '../../../tools/kafka-mock/build/kafka-mock');

/** Options for `KafkaMock.start`. */
export interface KafkaMockOptions {
  /** Brokers besides the controller (broker 0). Default 3. */
  brokers?: number;
  /** Topics to create at start, name → partitions. */
  topics?: Record<string, number>;
  binary?: string;
}

/**
 * A running librdkafka mock cluster (tools/kafka-mock), spoken to over its stdin. Each test
 * file starts its own, so injected faults never leak into other files.
 */
export class KafkaMock {
  private readonly replies: Array<(line: string) => void> = [];
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    /** Bootstrap servers, `host:port` each. */
    readonly brokers: string[],
    lines: AsyncIterable<string>,
  ) {
    void (async () => {
      for await (const line of lines) this.replies.shift()?.(line);
    })();
  }

  static async start(options: KafkaMockOptions = {}): Promise<KafkaMock> {
    const binary = options.binary ?? KAFKA_MOCK_BINARY;
    if (!existsSync(binary)) {
      throw new Error(
        `kafka-mock binary not found at ${binary}: run "npm run build:kafka-mock" (after "npm ci").`,
      );
    }
    const args = ['--brokers', String(options.brokers ?? 3)];
    for (const [topic, partitions] of Object.entries(options.topics ?? {})) {
      args.push('--topic', `${topic}:${partitions}`);
    }
    const child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const first = await Promise.race([
      lines.next(),
      new Promise<never>((_, reject) =>
        child.once('exit', (code) =>
          reject(new Error(`kafka-mock exited with ${code}: ${stderr}`)),
        ),
      ),
    ]);
    const match = /^BOOTSTRAP (.+)$/.exec(String(first.value ?? ''));
    if (!match) throw new Error(`kafka-mock did not print its bootstrap servers: ${stderr}`);
    const rest = { [Symbol.asyncIterator]: () => lines };
    return new KafkaMock(child, match[1].split(','), rest);
  }

  /** Sends one control command and resolves with its "ok ..." answer; rejects on "err ...". */
  command(line: string): Promise<string> {
    const run = async (): Promise<string> => {
      const answer = new Promise<string>((resolve) => this.replies.push(resolve));
      this.child.stdin.write(`${line}\n`);
      const reply = await answer;
      if (!reply.startsWith('ok')) throw new Error(`kafka-mock "${line}": ${reply}`);
      return reply;
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  createTopic(topic: string, partitions: number): Promise<string> {
    return this.command(`topic ${topic} ${partitions}`);
  }

  /** Takes a broker (or all of them) down: connections drop and new ones are refused. */
  brokerDown(broker: number | 'all' = 'all'): Promise<string> {
    return this.command(`down ${broker}`);
  }

  brokerUp(broker: number | 'all' = 'all'): Promise<string> {
    return this.command(`up ${broker}`);
  }

  setRtt(broker: number | 'all', ms: number): Promise<string> {
    return this.command(`rtt ${broker} ${ms}`);
  }

  /** The next `count` requests of `apiKey`, to any broker, fail with `errorCode`. */
  pushRequestErrors(apiKey: number, errorCode: number, count: number): Promise<string> {
    return this.command(`errors ${apiKey} ${errorCode} ${count}`);
  }

  /**
   * The next `count` requests of `apiKey` on `broker` answer `errorCode` after `rttMs`. With
   * error 0 and an rtt above the client's request timeout the request takes effect but its
   * reply is lost: an "unknown outcome".
   */
  pushBrokerErrors(
    broker: number,
    apiKey: number,
    errorCode: number,
    rttMs: number,
    count: number,
  ): Promise<string> {
    return this.command(`broker-errors ${broker} ${apiKey} ${errorCode} ${rttMs} ${count}`);
  }

  clearRequestErrors(apiKey: number): Promise<string> {
    return this.command(`clear-errors ${apiKey}`);
  }

  /** Stops the broker process and waits for it to exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
