import { Inject, Injectable } from '@nestjs/common';
import { PEER_OPTIONS, PeerOptions } from '../timeline/peer-client';

/** The services whose operator APIs the browser reaches through the console. */
export const PROXIED_SERVICES = [
  'order-service',
  'fulfillment-service',
  'accounting-service',
] as const;
export type ProxiedService = (typeof PROXIED_SERVICES)[number];

/** The operator routes the console may reach at a peer: their outbox, inbox and fulfillments. */
const PROXIED_PATH = /^(outbox|inbox|fulfillments)(\/[A-Za-z0-9._-]+)*$/;

/** A peer's answer, passed on as it came. */
export interface PeerAnswer {
  status: number;
  body: unknown;
}

/**
 * Forwards a console request to a service's operator API with the caller's own credentials, so
 * the service authenticates the operator (and its audit log names them), not the console.
 */
@Injectable()
export class PeerProxy {
  constructor(@Inject(PEER_OPTIONS) private readonly peers: PeerOptions) {}

  /** Whether `path` is one the console may reach at a peer. */
  static allows(path: string): boolean {
    return PROXIED_PATH.test(path);
  }

  async forward(request: {
    service: ProxiedService;
    path: string;
    method: string;
    query: string;
    body: unknown;
    authorization: string | undefined;
  }): Promise<PeerAnswer> {
    const base = {
      'order-service': this.peers.orderUrl,
      'fulfillment-service': this.peers.fulfillmentUrl,
      'accounting-service': this.peers.accountingUrl,
    }[request.service];
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    try {
      const response = await fetch(`${base}/${request.path}${request.query}`, {
        method: request.method,
        headers: {
          accept: 'application/json',
          ...(hasBody && { 'content-type': 'application/json' }),
          ...(request.authorization !== undefined && { authorization: request.authorization }),
        },
        body: hasBody ? JSON.stringify(request.body ?? {}) : undefined,
        // Reading a dead-letter topic or replaying can take longer than a timeline read.
        signal: AbortSignal.timeout(Math.max(this.peers.timeoutMs, 30_000)),
      });
      const text = await response.text();
      return { status: response.status, body: text.length > 0 ? parseJson(text) : null };
    } catch (error) {
      return {
        status: 502,
        body: { statusCode: 502, message: `${request.service}: ${(error as Error).message}` },
      };
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}
