import type { DeadLetterMessage, ReplayResult } from '@outbox-inbox/inbox';
import { DemoSettings, opsHeaders } from './demo-settings';
import { expectOk, requestJson } from './http-json';

/** The consumers the demo holds to account. */
export const DEMO_CONSUMERS = ['fulfillment-service', 'accounting-service'] as const;
export type DemoConsumer = (typeof DEMO_CONSUMERS)[number];

/** One dead letter of a consumer, as GET /inbox/dead-letters lists it: the fields the demo reads. */
export type DeadLetterView = Pick<
  DeadLetterMessage,
  'partition' | 'offset' | 'key' | 'eventType' | 'eventKey' | 'errorCode' | 'error' | 'replayedAt'
>;

/** What POST /inbox/dead-letters/replay answers, in the fields the demo reads. */
export type ReplayAnswer = Pick<ReplayResult, 'matched' | 'replayed' | 'wouldReplay'>;

/** Where a consumer's operator API answers. */
export function consumerUrl(settings: DemoSettings, consumer: DemoConsumer): string {
  return consumer === 'fulfillment-service' ? settings.urls.fulfillment : settings.urls.accounting;
}

/** Every dead letter of `consumer`, through its operator API. */
export function listDeadLetters(
  settings: DemoSettings,
  consumer: DemoConsumer,
): Promise<DeadLetterView[]> {
  return expectOk<DeadLetterView[]>(
    requestJson(`${consumerUrl(settings, consumer)}/inbox/dead-letters`, {
      headers: opsHeaders(settings),
    }),
    `${consumer} dead letters`,
  );
}

/**
 * Replays exactly `letters` (named by partition and offset) through the operator API; with
 * `dryRun` it only answers what it would replay. `reason` goes to the operator audit log.
 */
export function replayDeadLetters(
  settings: DemoSettings,
  consumer: DemoConsumer,
  letters: DeadLetterView[],
  options: { dryRun: boolean; reason: string },
): Promise<ReplayAnswer> {
  return expectOk<ReplayAnswer>(
    requestJson(`${consumerUrl(settings, consumer)}/inbox/dead-letters/replay`, {
      body: {
        messages: letters.map(({ partition, offset }) => ({ partition, offset })),
        ...options,
      },
      headers: opsHeaders(settings),
    }),
    `${options.dryRun ? 'dry run of the replay' : 'replay'} at ${consumer}`,
  );
}
