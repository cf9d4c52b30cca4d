/** Life of an outbox row: NEW → SENDING (leased) → SENT, or back to NEW to retry, or DEAD. */
export const OutboxStatus = {
  New: 'NEW',
  Sending: 'SENDING',
  Sent: 'SENT',
  Dead: 'DEAD',
} as const;

export type OutboxStatus = (typeof OutboxStatus)[keyof typeof OutboxStatus];
