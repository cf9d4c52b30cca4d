import { Inject, Injectable } from '@nestjs/common';
import { getPeerJson, PEER_OPTIONS, PeerOptions, PeerSection } from '../timeline/peer-client';
import { DeadLetterView, deadLettersToHandle } from './dead-letters-to-handle';

/** A service's outbox at a glance. */
export interface OutboxHealth {
  backlog: { NEW: number; SENDING: number; DEAD: number };
  oldestUnsentAgeMs: number;
  dead: number;
}

/** A consumer's inbox and dead-letter topic at a glance. */
export interface InboxHealth {
  consumer: string;
  parkedNow: number;
  openGaps: unknown[];
  /** Messages in the consumer's dead-letter topic; null when the broker could not be asked. */
  deadLetterTopicMessages: number | null;
  /**
   * Dead letters that still need a person (never replayed; one replayed and dead-lettered again
   * counts through its new copy); null when the consumer's list could not be read.
   */
  deadLettersToHandle: number | null;
}

/** GET /ops/pipeline: what the /ops page's health panel shows. */
export interface PipelineHealth {
  generatedAt: string;
  outbox: {
    'order-service': PeerSection<OutboxHealth>;
    'fulfillment-service': PeerSection<OutboxHealth>;
  };
  inbox: {
    'fulfillment-service': PeerSection<InboxHealth>;
    'accounting-service': PeerSection<InboxHealth>;
  };
}

/**
 * Reads the pipeline's health from the services' operator APIs, with the caller's
 * Authorization header (the operator's own token).
 */
@Injectable()
export class PipelineHealthReader {
  constructor(@Inject(PEER_OPTIONS) private readonly peers: PeerOptions) {}

  async read(authorization: string | undefined): Promise<PipelineHealth> {
    const { orderUrl, fulfillmentUrl, accountingUrl, timeoutMs } = this.peers;
    const peer = { timeoutMs, authorization };
    const [orderOutbox, fulfillmentOutbox, fulfillmentInbox, accountingInbox] = await Promise.all([
      getPeerJson<OutboxHealth>(`${orderUrl}/outbox/stats`, peer),
      getPeerJson<OutboxHealth>(`${fulfillmentUrl}/outbox/stats`, peer),
      this.inbox(fulfillmentUrl, peer),
      this.inbox(accountingUrl, peer),
    ]);
    return {
      generatedAt: new Date().toISOString(),
      outbox: {
        'order-service': pickOutbox(orderOutbox),
        'fulfillment-service': pickOutbox(fulfillmentOutbox),
      },
      inbox: {
        'fulfillment-service': fulfillmentInbox,
        'accounting-service': accountingInbox,
      },
    };
  }

  /** A consumer's inbox stats and how many of its dead letters need a person. */
  private async inbox(
    url: string,
    peer: { timeoutMs: number; authorization: string | undefined },
  ): Promise<PeerSection<InboxHealth>> {
    const [stats, letters] = await Promise.all([
      getPeerJson<InboxHealth>(`${url}/inbox/stats`, peer),
      getPeerJson<DeadLetterView[]>(`${url}/inbox/dead-letters`, peer),
    ]);
    if (stats.status !== 'ok') return stats;
    const { consumer, parkedNow, openGaps, deadLetterTopicMessages } = stats.data;
    const toHandle = letters.status === 'ok' ? deadLettersToHandle(letters.data) : null;
    return {
      status: 'ok',
      data: {
        consumer,
        parkedNow,
        openGaps,
        deadLetterTopicMessages,
        deadLettersToHandle: toHandle,
      },
    };
  }
}

function pickOutbox(section: PeerSection<OutboxHealth>): PeerSection<OutboxHealth> {
  if (section.status !== 'ok') return section;
  const { backlog, oldestUnsentAgeMs, dead } = section.data;
  return { status: 'ok', data: { backlog, oldestUnsentAgeMs, dead } };
}
