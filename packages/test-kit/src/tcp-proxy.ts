import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy on loopback in front of a real server (the shared MariaDB, say), so a test can
 * cut one service off from it without touching the server: `cut()` drops every connection
 * through the proxy and stops listening, so new connections are refused (ECONNREFUSED, as
 * when a database restarts); `heal()` listens again on the same port.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  private latencyMs = 0;

  private constructor(
    private readonly target: { host: string; port: number },
    private boundPort: number,
  ) {}

  /** Starts a proxy to `target` on a free loopback port (or `port`). */
  static async start(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
    const proxy = new TcpProxy(target, port);
    proxy.boundPort = await proxy.listen();
    return proxy;
  }

  /**
   * A proxy in front of the server `url` names (mysql://, postgres://…), and `url` with the
   * proxy's port in its place: what connects to the returned URL can be cut off.
   */
  static async inFrontOf(url: string): Promise<{ proxy: TcpProxy; url: string }> {
    const server = new URL(url);
    const defaultPort = server.protocol.startsWith('postgres') ? 5432 : 3306;
    const proxy = await TcpProxy.start({
      host: server.hostname,
      port: Number(server.port || defaultPort),
    });
    server.hostname = '127.0.0.1';
    server.port = String(proxy.port);
    return { proxy, url: server.toString() };
  }

  /** The port clients connect to; it stays the same across `cut()` and `heal()`. */
  get port(): number {
    return this.boundPort;
  }

  /** `host:port` of the proxy. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** True between `cut()` and `heal()`. */
  get isCut(): boolean {
    return this.server === undefined;
  }

  /** Drops every open connection and refuses new ones until `heal()`. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Accepts connections again, on the same port. */
  async heal(): Promise<void> {
    if (!this.server) await this.listen();
  }

  /**
   * Holds every reply (server → client bytes) for `ms` before passing it on, in order: a slow
   * network or a slow server. 0 passes replies straight through again.
   */
  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  /** Stops the proxy for good. */
  stop(): Promise<void> {
    return this.cut();
  }

  private listen(): Promise<number> {
    const server = createServer((client) => this.pipe(client));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.boundPort, '127.0.0.1', () => {
        server.off('error', reject);
        this.server = server;
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : this.port);
      });
    });
  }

  private pipe(client: Socket): void {
    const upstream = createConnection(this.target);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      // Either side failing ends both, as a broken network path would.
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    this.relayReplies(upstream, client);
  }

  /**
   * Passes the server's bytes to the client, each chunk after the latency in force when it
   * arrived, and never before an earlier chunk: a latency lowered mid-flight must not reorder
   * the stream.
   */
  private relayReplies(upstream: Socket, client: Socket): void {
    const queue: Array<{ chunk: Buffer; at: number }> = [];
    let timer: NodeJS.Timeout | undefined;
    const release = () => {
      timer = undefined;
      while (queue.length > 0 && queue[0].at <= Date.now()) client.write(queue.shift()!.chunk);
      if (queue.length > 0) timer = setTimeout(release, queue[0].at - Date.now());
    };
    upstream.on('data', (chunk: Buffer) => {
      if (this.latencyMs === 0 && queue.length === 0) return void client.write(chunk);
      queue.push({ chunk, at: Date.now() + this.latencyMs });
      if (!timer) timer = setTimeout(release, queue[0].at - Date.now());
    });
    client.on('close', () => clearTimeout(timer));
  }
}
