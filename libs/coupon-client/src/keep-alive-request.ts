import { Agent as HttpAgent, IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** An HTTP exchange's answer: status and the body as text. */
export interface HttpAnswer {
  status: number;
  text: string;
}

/** Thrown when no complete answer came within the call's time; anything else is a network error. */
export class HttpCallTimeout extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * Idle connections are closed after this long, before a Node server's default
 * keepAliveTimeout (5 s) closes them from its side, so a request is not written to a socket the
 * server is closing.
 */
const IDLE_SOCKET_MS = 4_000;

/**
 * One request over pooled keep-alive connections (node:http / node:https). The exchange,
 * body included, must complete within `timeoutMs`, else it is abandoned (socket destroyed) and
 * rejects with HttpCallTimeout. Used instead of fetch, whose per-call CPU (WHATWG streams,
 * headers and body objects) was 3-4x that of node:http in the fulfillment-service's grants.
 */
export class KeepAliveRequester {
  private readonly agent: HttpAgent;
  private readonly send: typeof httpRequest;

  constructor(baseUrl: URL) {
    const https = baseUrl.protocol === 'https:';
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS };
    this.agent = https ? new HttpsAgent(options) : new HttpAgent(options);
    this.send = https ? httpsRequest : httpRequest;
  }

  request(
    url: URL,
    options: { method: string; headers: Record<string, string>; body?: string; timeoutMs: number },
  ): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const headers = { ...options.headers };
      if (options.body !== undefined) {
        headers['content-length'] = String(Buffer.byteLength(options.body));
      }
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      const req = this.send(url, { method: options.method, headers, agent: this.agent });
      const timer = setTimeout(() => {
        settle(() => reject(new HttpCallTimeout(`no answer within ${options.timeoutMs} ms`)));
        req.destroy();
      }, options.timeoutMs);
      req.on('error', (error) => settle(() => reject(error)));
      req.once('response', (response: IncomingMessage) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.once('end', () =>
          settle(() => resolve({ status: response.statusCode ?? 0, text })),
        );
        response.on('error', (error) => settle(() => reject(error)));
        response.once('aborted', () =>
          settle(() => reject(new Error('the connection closed before the answer was complete'))),
        );
      });
      req.end(options.body);
    });
  }

  /** Closes the pooled connections. */
  close(): void {
    this.agent.destroy();
  }
}
